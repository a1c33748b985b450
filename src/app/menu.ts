import { matchRoute, type Parser } from 'wouter';
import { tKey } from '../i18n/keys';
import type { Role } from '../machines/session.machine';
import { OPEN_CLIENTS_HREF } from '../views/clients/open-clients';
import { ADMIN_ONLY, MANAGERS, STAFF, SUPERADMIN_ONLY, hasRole } from './access';

/**
 * The navigation of the specification's screens and routes, visible per role as its roles and
 * permissions say. Data-driven: an item shows only when the app has a route for its path (areas
 * whose issue has not landed have none yet), and external links only when configured.
 */
export type MenuSection = 'quick' | 'main' | 'bottom';

export interface MenuItem {
  id: string;
  section: MenuSection;
  /** i18n key, namespace `common`. */
  labelKey: string;
  /** Where the item leads; its path part must be a route of the app. */
  href: string;
  roles: readonly Role[];
  /** Opens outside the app (analytics). */
  external?: boolean;
}

export interface MenuConfig {
  /** The analytics link (bottom item); hidden when unset. */
  analyticsUrl?: string | undefined;
}

export function menuItems(config: MenuConfig = {}): MenuItem[] {
  const items: MenuItem[] = [
    {
      id: 'newClient',
      section: 'quick',
      labelKey: tKey('common:menu.newClient'),
      href: '/clients/new',
      roles: MANAGERS,
    },
    {
      id: 'openClients',
      section: 'quick',
      labelKey: tKey('common:menu.openClients'),
      href: OPEN_CLIENTS_HREF,
      roles: MANAGERS,
    },
    {
      id: 'newMeeting',
      section: 'quick',
      labelKey: tKey('common:menu.newMeeting'),
      href: '/appointments/new',
      roles: STAFF,
    },
    {
      id: 'newAdhocMeeting',
      section: 'quick',
      labelKey: tKey('common:menu.newAdhocMeeting'),
      href: '/appointments/new-adhoc',
      roles: MANAGERS,
    },
    {
      id: 'review',
      section: 'quick',
      labelKey: tKey('common:menu.review'),
      href: '/review',
      roles: STAFF,
    },
    {
      id: 'today',
      section: 'main',
      labelKey: tKey('common:menu.today'),
      href: '/today',
      roles: STAFF,
    },
    {
      id: 'calendar',
      section: 'main',
      labelKey: tKey('common:menu.calendar'),
      href: '/calendar',
      roles: STAFF,
    },
    {
      id: 'initialCalendar',
      section: 'main',
      labelKey: tKey('common:menu.initialCalendar'),
      href: '/calendar/initial-meetings',
      roles: MANAGERS,
    },
    {
      id: 'meetings',
      section: 'main',
      labelKey: tKey('common:menu.meetings'),
      href: '/coach/meeting',
      roles: STAFF,
    },
    {
      id: 'appointments',
      section: 'main',
      labelKey: tKey('common:menu.appointments'),
      href: '/appointments',
      roles: STAFF,
    },
    {
      id: 'clients',
      section: 'main',
      labelKey: tKey('common:menu.clients'),
      href: '/clients',
      roles: STAFF,
    },
    {
      id: 'billing',
      section: 'main',
      labelKey: tKey('common:menu.billing'),
      href: '/billing',
      roles: STAFF,
    },
    {
      id: 'invoices',
      section: 'main',
      labelKey: tKey('common:menu.invoices'),
      href: '/billing/invoices',
      roles: ADMIN_ONLY,
    },
    {
      id: 'billingRules',
      section: 'main',
      labelKey: tKey('common:menu.billingRules'),
      href: '/billing/rules',
      roles: ADMIN_ONLY,
    },
    {
      id: 'availability',
      section: 'main',
      labelKey: tKey('common:menu.availability'),
      href: '/availability',
      roles: STAFF,
    },
    {
      id: 'coaches',
      section: 'main',
      labelKey: tKey('common:menu.coaches'),
      href: '/coaches',
      roles: MANAGERS,
    },
    {
      id: 'events',
      section: 'main',
      labelKey: tKey('common:menu.events'),
      href: '/events',
      roles: MANAGERS,
    },
    {
      id: 'users',
      section: 'main',
      labelKey: tKey('common:menu.users'),
      href: '/users',
      roles: MANAGERS,
    },
    {
      id: 'insurers',
      section: 'main',
      labelKey: tKey('common:menu.insurers'),
      href: '/admin/insurers',
      roles: ADMIN_ONLY,
    },
    {
      id: 'campaigns',
      section: 'main',
      labelKey: tKey('common:menu.campaigns'),
      href: '/admin/campaigns',
      roles: ADMIN_ONLY,
    },
    {
      id: 'dashboard',
      section: 'main',
      labelKey: tKey('common:menu.dashboard'),
      href: '/dashboard',
      roles: SUPERADMIN_ONLY,
    },
    {
      id: 'admin',
      section: 'main',
      labelKey: tKey('common:menu.admin'),
      href: '/admin',
      roles: ADMIN_ONLY,
    },
    {
      id: 'profile',
      section: 'bottom',
      labelKey: tKey('common:menu.profile'),
      href: '/profile',
      roles: STAFF,
    },
    {
      id: 'help',
      section: 'bottom',
      labelKey: tKey('common:menu.help'),
      href: '/help',
      roles: STAFF,
    },
    {
      id: 'support',
      section: 'bottom',
      labelKey: tKey('common:menu.support'),
      href: '/support',
      roles: STAFF,
    },
  ];
  if (config.analyticsUrl) {
    items.push({
      id: 'analytics',
      section: 'bottom',
      labelKey: tKey('common:menu.analytics'),
      href: config.analyticsUrl,
      roles: MANAGERS,
      external: true,
    });
  }
  return items;
}

/** True when one of the route patterns matches the path part of `href`. */
export function routeExists(href: string, patterns: readonly string[], parser: Parser): boolean {
  const path = href.split(/[?#]/)[0]!;
  return patterns.some((pattern) => matchRoute(parser, pattern, path)[0]);
}

/** The items a role sees, in menu order, per section. */
export function visibleMenu(
  role: Role,
  items: readonly MenuItem[],
  patterns: readonly string[],
  parser: Parser,
): Record<MenuSection, MenuItem[]> {
  const shown = items.filter(
    (item) =>
      hasRole(role, item.roles) && (item.external || routeExists(item.href, patterns, parser)),
  );
  return {
    quick: shown.filter((i) => i.section === 'quick'),
    main: shown.filter((i) => i.section === 'main'),
    bottom: shown.filter((i) => i.section === 'bottom'),
  };
}
