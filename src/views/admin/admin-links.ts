import { tKey } from '../../i18n/keys';
import type { Role } from '../../machines/session.machine';

/** A page of the superadmin area, as the hub lists it. */
export interface AdminLink {
  href: string;
  labelKey: string;
  hintKey: string;
  /** Who may open the page (SUPERADMIN always may), as its route and operations say. */
  roles: readonly Role[];
}

const SUPERADMIN: readonly Role[] = ['SUPERADMIN'];
const ADMINS: readonly Role[] = ['ADMIN'];

/**
 * The hub's pages, in order. Some belong to other areas (the mailing list, the research export)
 * and are listed only when the app has their route (`AdminHubPage` gets the route patterns).
 */
export const ADMIN_LINKS: readonly AdminLink[] = [
  {
    href: '/admin/practice',
    labelKey: tKey('admin:hub.links.practice'),
    hintKey: tKey('admin:hub.links.practiceHint'),
    roles: SUPERADMIN,
  },
  {
    href: '/admin/webhooks',
    labelKey: tKey('admin:hub.links.webhooks'),
    hintKey: tKey('admin:hub.links.webhooksHint'),
    roles: SUPERADMIN,
  },
  {
    href: '/admin/email-sync',
    labelKey: tKey('admin:hub.links.emailSync'),
    hintKey: tKey('admin:hub.links.emailSyncHint'),
    roles: SUPERADMIN,
  },
  {
    href: '/admin/mailing-list',
    labelKey: tKey('admin:hub.links.mailingList'),
    hintKey: tKey('admin:hub.links.mailingListHint'),
    roles: ADMINS,
  },
  {
    href: '/admin/insurers',
    labelKey: tKey('admin:hub.links.insurers'),
    hintKey: tKey('admin:hub.links.insurersHint'),
    roles: ADMINS,
  },
  {
    href: '/admin/campaigns',
    labelKey: tKey('admin:hub.links.campaigns'),
    hintKey: tKey('admin:hub.links.campaignsHint'),
    roles: ADMINS,
  },
  {
    href: '/admin/research-export',
    labelKey: tKey('admin:hub.links.researchExport'),
    hintKey: tKey('admin:hub.links.researchExportHint'),
    roles: ADMINS,
  },
];

/** The links whose page exists (one of the app's route patterns) and that `role` may open. */
export const availableAdminLinks = (patterns: readonly string[], role: Role): AdminLink[] =>
  ADMIN_LINKS.filter(
    (link) => patterns.includes(link.href) && (role === 'SUPERADMIN' || link.roles.includes(role)),
  );
