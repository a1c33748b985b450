import createClient, { type Client } from 'openapi-fetch';
import type { paths } from '../../shared/contract/auth';

export type AuthApiClient = Client<paths>;

/**
 * The typed client for the authentication provider (openapi/auth.yaml): `/auth` on this origin
 * by default, or a hosted provider's base URL. Shared by the app's services and the sign-in
 * page's early start script (src/early-login.ts), which has no session and so no bearer.
 */
export function createAuthApiClient(
  options: { baseUrl?: string; fetch?: typeof globalThis.fetch } = {},
): AuthApiClient {
  return createClient<paths>({
    baseUrl: options.baseUrl ?? '/auth',
    ...(options.fetch ? { fetch: options.fetch } : {}),
    // A hosted provider on another origin needs its cookies (protocol §1.4).
    credentials: 'include',
  });
}
