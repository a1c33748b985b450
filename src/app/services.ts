import { createContext, useContext } from 'react';
import { createApiClient, type ApiClient } from '../api/client';
import type { TokenGetter } from '../api/middleware';
import { createAuthEvents, type AuthEvents } from './auth-events';
import type { InspectOption } from './inspector';
import { createNetworkBannerStore, type NetworkBannerStore } from './network-banner';

/**
 * App-wide actors and clients, created once outside React (style.md, convention 6) and handed
 * down through AppServicesContext. Tests build their own with fakes.
 */
export interface AppServices {
  api: ApiClient;
  networkBanner: NetworkBannerStore;
  /** Widget → session events (session-created, user-deleted, …). */
  authEvents: AuthEvents;
}

export interface AppServicesDeps {
  /** The session's access token (the session machine provides it). */
  getToken?: TokenGetter;
  /** Reloads the page (the banner's retry). */
  reload?: () => void;
  fetch?: typeof globalThis.fetch;
  apiBaseUrl?: string;
  /** The Stately inspector (src/app/inspector.ts), attached to every app-wide actor. */
  inspect?: InspectOption | undefined;
}

export function createAppServices(deps: AppServicesDeps = {}): AppServices {
  const networkBanner = createNetworkBannerStore({
    reload: deps.reload ?? (() => window.location.reload()),
  });
  if (deps.inspect) networkBanner.inspect(deps.inspect);
  const api = createApiClient({
    getToken: deps.getToken ?? (() => undefined),
    onNetworkError: () => networkBanner.send({ type: 'networkFailed' }),
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
    ...(deps.apiBaseUrl ? { baseUrl: deps.apiBaseUrl } : {}),
  });
  return { api, networkBanner, authEvents: createAuthEvents() };
}

export const AppServicesContext = createContext<AppServices | null>(null);

export function useAppServices(): AppServices {
  const services = useContext(AppServicesContext);
  if (!services) throw new Error('useAppServices: wrap the tree in <AppServicesContext value={…}>');
  return services;
}
