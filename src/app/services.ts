import { createContext, useContext } from 'react';
import { createActor } from 'xstate';
import { createAuthApiClient, type AuthApiClient } from '../api/auth-client';
import { createApiClient, type ApiClient } from '../api/client';
import { bearerMiddleware, type TokenGetter } from '../api/middleware';
import { backendBaseUrls } from '../lib/backend-urls';
import { createSessionEffects, type BrowserSessionStore } from '../machines/actors/session';
import { sessionMachine } from '../machines/session.machine';
import { createAuthEvents, type AuthEvents } from '../ports/auth-events';
import type { PageServices } from '../views/page-services';
import { createConsentActor, type ConsentActor } from './consent';
import type { InspectOption } from './inspector';
import { createNetworkBannerStore, type NetworkBannerStore } from './network-banner';
import { createBrowserSessionStore } from './session-storage';
import { createSidebarStore, type SidebarStore } from './sidebar';
import { createToastStore, type ToastStore } from './toasts';

/**
 * App-wide actors and clients, created once outside React (docs/style.md, convention 6) and handed
 * down through AppServicesContext to the app's frame (src/app/layout/) and, as far as pages
 * read them, through PageServicesContext (src/views/page-services.ts). Tests build their own
 * with fakes.
 */
export interface AppServices extends PageServices {
  api: ApiClient;
  networkBanner: NetworkBannerStore;
  toasts: ToastStore;
  sidebar: SidebarStore;
  /** Typed client for the authentication provider (openapi/auth.yaml); the sign-in widget's. */
  authApi: AuthApiClient;
  /** The session's token, for calls that need it (the widget's profile flow). */
  getToken: TokenGetter;
  /** The visitor's consent to the sign-up pages' tag manager (banner and footer link). */
  consent: ConsentActor;
}

export interface AppServicesDeps {
  /** The access token; defaults to the session machine's token. */
  getToken?: TokenGetter;
  /** Reloads the page (the banner's retry). */
  reload?: () => void;
  fetch?: typeof globalThis.fetch;
  /** Base URL of the product API; defaults to `VITE_API_BASE_URL`, else `/api` (same origin). */
  apiBaseUrl?: string;
  /** Base URL of the authentication provider; defaults to `VITE_AUTH_BASE_URL`, else `/auth`. */
  authBaseUrl?: string;
  /** Cookie and local storage of the session; tests pass an in-memory one. */
  sessionStore?: BrowserSessionStore;
  /** The window whose width drives the sidebar; defaults to the real one when there is one. */
  window?: Pick<Window, 'innerWidth' | 'addEventListener'>;
  /** The page's document and storage for the consent (tests pass their own). */
  consent?: Omit<Parameters<typeof createConsentActor>[0], 'inspect'>;
  /** The Stately inspector (src/app/inspector.ts), attached to every app-wide actor. */
  inspect?: InspectOption | undefined;
}

export function createAppServices(deps: AppServicesDeps = {}): AppServices {
  const configured = backendBaseUrls();
  const apiBaseUrl = deps.apiBaseUrl ?? configured.api;
  const authBaseUrl = deps.authBaseUrl ?? configured.auth;
  const networkBanner = createNetworkBannerStore(
    { reload: deps.reload ?? (() => window.location.reload()) },
    deps.inspect,
  );
  const authEvents = createAuthEvents();
  const store = deps.sessionStore ?? createBrowserSessionStore();

  // The client reads the token from the session actor, created just below.
  const sessionRef: { current?: AppServices['session'] } = {};
  const getToken: TokenGetter =
    deps.getToken ?? (() => sessionRef.current?.getSnapshot().context.token);
  const api = createApiClient({
    getToken,
    onNetworkError: () => networkBanner.send({ type: 'networkFailed' }),
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
    ...(apiBaseUrl ? { baseUrl: apiBaseUrl } : {}),
  });
  // A 401 from the product API means the session ended (expired, or revoked on another
  // device): the same as the provider saying so. Runs before the error middleware.
  // A 403 `inactive_user` means the account was deactivated since the session was cached:
  // the session is loaded again, and the guards send the person to /notactive.
  api.use({
    async onResponse({ response }) {
      const session = sessionRef.current;
      if (!session?.getSnapshot().context.token) return undefined;
      if (response.status === 401) authEvents.emit({ type: 'session-expired' });
      if (response.status === 403) {
        const problem = (await response
          .clone()
          .json()
          .catch(() => null)) as { code?: unknown } | null;
        if (problem?.code === 'inactive_user') session.send({ type: 'session.refresh' });
      }
      return undefined;
    },
  });

  const auth = createAuthApiClient({
    ...(authBaseUrl ? { baseUrl: authBaseUrl } : {}),
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
  });
  auth.use(bearerMiddleware(getToken));
  const providerLogout = async (token: string | null) => {
    if (!token) return;
    // 401: the provider ended the session already, which is what logging out wants.
    await auth.POST('/logout', { headers: { Authorization: `Bearer ${token}` } });
  };

  const effects = createSessionEffects({ api, authEvents, store, providerLogout });
  const session = createActor(sessionMachine.provide(effects), {
    input: { token: store.readToken(), session: store.readSession() },
    ...(deps.inspect ? { inspect: deps.inspect } : {}),
  });
  sessionRef.current = session;
  session.start();

  const win = deps.window ?? (typeof window === 'undefined' ? undefined : window);
  const sidebar = createSidebarStore(win?.innerWidth ?? 1400, deps.inspect);
  win?.addEventListener('resize', () =>
    sidebar.send({ type: 'viewportChanged', width: win.innerWidth }),
  );

  const toasts = createToastStore(undefined, deps.inspect);
  announceSessionChanges(session, authEvents, toasts);

  const consent = createConsentActor({ ...deps.consent, inspect: deps.inspect });

  return {
    api,
    networkBanner,
    authEvents,
    session,
    toasts,
    sidebar,
    authApi: auth,
    getToken,
    consent,
  };
}

/** Toasts for what happens to the session outside the current page's control. */
function announceSessionChanges(
  session: AppServices['session'],
  authEvents: AuthEvents,
  toasts: ToastStore,
) {
  const messages = {
    'user-logged-out': 'common:toasts.loggedOut',
    'session-expired': 'common:toasts.sessionExpired',
    'user-deleted': 'common:toasts.accountDeleted',
  } as const;
  authEvents.subscribe((event) => {
    if (event.type === 'session-created') return;
    // One toast per kind: the logout is announced once, even if the widget repeats it.
    toasts.send({
      type: 'show',
      id: `session-${event.type}`,
      kind: event.type === 'user-logged-out' ? 'info' : 'warning',
      messageKey: messages[event.type],
    });
  });
  let activating = false;
  session.subscribe((snapshot) => {
    if (activating && snapshot.matches({ signedIn: 'active' })) {
      toasts.send({ type: 'show', kind: 'success', messageKey: 'common:toasts.activated' });
    }
    activating = snapshot.matches({ signedIn: { inactive: 'activating' } });
  });
}

export const AppServicesContext = createContext<AppServices | null>(null);

export function useAppServices(): AppServices {
  const services = useContext(AppServicesContext);
  if (!services) throw new Error('useAppServices: wrap the tree in <AppServicesContext value={…}>');
  return services;
}
