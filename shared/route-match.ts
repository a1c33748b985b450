/**
 * A route pattern of src/app/routes.ts (`/a/:b`) against a path, as the router matches it;
 * a trailing slash is optional. Shared by the start script (src/main.tsx) and the server's
 * per-route index.html (server/web/static.ts).
 */
export function matchesRoute(pattern: string, pathname: string): boolean {
  const want = pattern.split('/');
  const have = (pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname).split('/');
  return (
    want.length === have.length &&
    want.every((part, i) => (part.startsWith(':') ? have[i] !== '' : part === have[i]))
  );
}

/**
 * What the build (vite.config.ts, `routeHints`) writes for one route and the server
 * (server/web/static.ts) names in that route's index.html.
 */
export interface RouteHint {
  /** The route's pattern as in src/app/routes.ts (`/clients/:clientId`). */
  pattern: string;
  /** Scripts of their own the page runs at once (`async`), before the app's start script. */
  entry?: string[];
  /** The page's chunks and their imports that index.html does not load already. */
  js: string[];
  css: string[];
  /** Translation namespaces the page needs besides the start ones. */
  ns: string[];
}

/** Where the build writes the hints, relative to the built web app. */
export const ROUTE_HINTS_FILE = '.vite/route-hints.json';

/**
 * Pages whose sign-in widget starts a login flow at once (signed-out visitors only): the build
 * (vite.config.ts, `routeHints`) names src/early-login.ts in their index.html.
 */
export const EARLY_LOGIN_PATHS: readonly string[] = ['/login', '/client-signup/login'];
