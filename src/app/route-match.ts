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
