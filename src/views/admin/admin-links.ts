import { tKey } from '../../i18n/keys';

/** A page of the superadmin area, as the hub lists it. */
export interface AdminLink {
  href: string;
  labelKey: string;
  hintKey: string;
}

/**
 * The hub's pages, in order. Some belong to other areas (the mailing list, the research export)
 * and are listed only when the app has their route (`AdminHubPage` gets the route patterns).
 */
export const ADMIN_LINKS: readonly AdminLink[] = [
  { href: '/admin/webhooks', labelKey: tKey('admin:hub.links.webhooks'), hintKey: tKey('admin:hub.links.webhooksHint') },
  { href: '/admin/email-sync', labelKey: tKey('admin:hub.links.emailSync'), hintKey: tKey('admin:hub.links.emailSyncHint') },
  {
    href: '/admin/mailing-list',
    labelKey: tKey('admin:hub.links.mailingList'),
    hintKey: tKey('admin:hub.links.mailingListHint'),
  },
  {
    href: '/admin/research-export',
    labelKey: tKey('admin:hub.links.researchExport'),
    hintKey: tKey('admin:hub.links.researchExportHint'),
  },
];

/** The links whose page exists: their path is one of the app's route patterns. */
export const availableAdminLinks = (patterns: readonly string[]): AdminLink[] =>
  ADMIN_LINKS.filter((link) => patterns.includes(link.href));
