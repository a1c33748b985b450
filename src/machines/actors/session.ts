import { fromCallback, fromPromise, type EventObject } from 'xstate';
import type { ApiClient } from '../../api/client';
import type { AuthEvents } from '../../ports/auth-events';
import type { SessionInfo, sessionMachine } from '../session.machine';

/**
 * Where the session is kept in the browser; src/app/session-storage.ts keeps it in the `hanko`
 * cookie and local storage, tests in memory.
 */
export interface BrowserSessionStore {
  readToken(): string | null;
  writeToken(token: string, expiresAt: number | null): void;
  readSession(): SessionInfo | null;
  writeSession(session: SessionInfo): void;
  clear(): void;
}

export interface SessionEffectsDeps {
  api: ApiClient;
  authEvents: AuthEvents;
  store: BrowserSessionStore;
  /** Ends the session at the authentication provider (`POST /auth/logout` with the token). */
  providerLogout: (token: string | null) => Promise<void>;
}

type Implementations = Parameters<typeof sessionMachine.provide>[0];

/** The session machine's real effects: API calls, the widget channel, cookie and storage. */
export function createSessionEffects(deps: SessionEffectsDeps) {
  return {
    actors: {
      login: fromPromise<SessionInfo, { token: string }>(async ({ input, signal }) => {
        // The token is passed explicitly: the client's getToken may not see it yet.
        const { data } = await deps.api.POST('/login', {
          headers: { Authorization: `Bearer ${input.token}` },
          signal,
        });
        return data!;
      }),
      activate: fromPromise<SessionInfo, { code: string }>(async ({ input, signal }) => {
        const { data } = await deps.api.POST('/user/activate', {
          body: { activationCode: input.code },
          signal,
        });
        return data!;
      }),
      logout: fromPromise<void, { token: string | null }>(({ input }) =>
        deps.providerLogout(input.token),
      ),
      authEvents: fromCallback<EventObject>(({ sendBack }) =>
        deps.authEvents.subscribe((event) => sendBack(event)),
      ),
    },
    actions: {
      storeToken: (_: unknown, params: { token: string; expiresAt: number | null }) =>
        deps.store.writeToken(params.token, params.expiresAt),
      storeSession: (_: unknown, params: { session: SessionInfo }) =>
        deps.store.writeSession(params.session),
      forgetSession: () => deps.store.clear(),
      announceLogout: () => deps.authEvents.emit({ type: 'user-logged-out' }),
    },
  } satisfies Implementations;
}
