/**
 * Build-time addresses of the backend, in a module of their own: the sign-in page's early
 * start script (src/early-login.ts) reads them too and stays small.
 */
export interface BackendBaseUrls {
  /** The product API's base; undefined: `/api` on this origin. */
  api: string | undefined;
  /** The sign-in provider's base; undefined: `/auth` on this origin. */
  auth: string | undefined;
}

const baseUrl = (value: string | undefined) => value?.trim().replace(/\/+$/, '') || undefined;

/**
 * `VITE_API_BASE_URL` and `VITE_AUTH_BASE_URL`: where a web app served from another origin
 * finds the API and the sign-in provider (e.g. `https://api.example.org/api`). Unset: this
 * origin, as before.
 */
export const backendBaseUrls = (
  // Read when called: tests set the build's variables with vi.stubEnv.
  settings: Record<string, string | undefined> = import.meta.env as Record<
    string,
    string | undefined
  >,
): BackendBaseUrls => ({
  api: baseUrl(settings.VITE_API_BASE_URL),
  auth: baseUrl(settings.VITE_AUTH_BASE_URL),
});
