import { matchRoute, type Parser } from 'wouter';

/**
 * The specification's screens and constants: breadcrumbs show when the route depth is greater than
 * 3.
 */
export const BREADCRUMBS_MIN_DEPTH = 3;

export interface BreadcrumbRoute {
  /** wouter pattern, e.g. `/clients/:clientId/edit`. */
  path: string;
  /** i18n key of the crumb (namespace `translation`), e.g. `breadcrumbs.home`. */
  breadcrumb: string;
}

export interface Crumb {
  /** The URL this crumb links to. */
  href: string;
  /** i18n key of the crumb's label. */
  labelKey: string;
}

/**
 * The trail for a path: the home route, then one crumb per path prefix that is itself a route
 * (`/clients/42/edit` → home, clients, client 42, edit). The route depth is the trail length.
 */
export function breadcrumbTrail(
  pathname: string,
  routes: readonly BreadcrumbRoute[],
  parser: Parser,
): Crumb[] {
  const segments = pathname.split('/').filter(Boolean);
  const prefixes = ['/', ...segments.map((_, i) => `/${segments.slice(0, i + 1).join('/')}`)];
  const trail: Crumb[] = [];
  for (const prefix of prefixes) {
    const route = routes.find((r) => matchRoute(parser, r.path, prefix)[0]);
    if (route) trail.push({ href: prefix, labelKey: route.breadcrumb });
  }
  return trail;
}

export const showBreadcrumbs = (trail: readonly Crumb[]): boolean =>
  trail.length > BREADCRUMBS_MIN_DEPTH;
