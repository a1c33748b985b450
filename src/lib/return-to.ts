/** `/login?returnTo=%2Fcalendar%3Fx%3D1`: where to go, carrying the page the user came from. */
export const withReturnTo = (path: string, returnTo: string): string =>
  `${path}?returnTo=${encodeURIComponent(returnTo)}`;

/**
 * A returnTo value from the URL that is safe to follow: a path of this app (`/…`, not `//host`
 * or `/\host`), else undefined.
 */
export function safeReturnTo(value: string | null | undefined): string | undefined {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) {
    return undefined;
  }
  return value;
}
