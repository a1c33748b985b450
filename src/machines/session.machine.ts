import { assign, fromCallback, fromPromise, setup, type EventObject } from 'xstate';
import type { AuthEvent } from '../ports/auth-events';
import type { components } from '../../shared/contract/product';
import { machineErrorOf, notProvided as notProvidedBy, type MachineError } from './shared/failures';

/**
 * The application session (the specification's states and transitions): who is signed in, with
 * which role, and whether the account is active.
 *
 * - Restored at start from what src/app read out of the browser (token cookie `hanko`,
 *   local-storage entry `session` without the API client); removed when cleared.
 * - `session-created` (from the sign-in widget through services.authEvents) stores the token
 *   and calls `POST /login`, which gives role, active and coach. A failed call leaves the
 *   session partially logged in (retry possible); a 401 means the token is dead: signed out.
 * - An inactive user can send an activation code (`POST /user/activate`); the answer refreshes
 *   the session at once.
 * - `session-expired`, `user-logged-out` and `user-deleted` clear it. `session.logout` signs
 *   out at the provider, clears the session and announces `user-logged-out` on the channel.
 *
 * Effects are named actors and actions supplied with `.provide()` (src/machines/actors/session.ts).
 */

export type Role = components['schemas']['Role'];
export type SessionPermission = components['schemas']['SessionPermission'];

/** What the app keeps about the signed-in person (cached in local storage as `session`). */
export interface SessionInfo {
  userId: string;
  /** Shown in the header; absent in sessions cached before the login answer carried it. */
  email?: string;
  role: Role;
  active: boolean;
  coach: { id: string; name: string } | null;
  /** A client's own client record, once the account is linked to one (role NONE only). */
  clientId?: string;
  /**
   * What the role may do (server/access/permissions.ts): pages and machines read these, never
   * the role. Absent only in sessions cached before the login answer carried it: none.
   */
  permissions?: readonly SessionPermission[];
}

/** A failure the UI translates by `code` (`activation_code_invalid`, `network_error`, …). */
export type SessionError = MachineError;

export interface SessionContext {
  /** The session JWT, sent as Bearer by the API client; null when signed out. */
  token: string | null;
  /** When the token expires (ms since epoch), if the provider said so. */
  expiresAt: number | null;
  session: SessionInfo | null;
  error: SessionError | null;
}

export interface SessionInput {
  token?: string | null;
  expiresAt?: number | null;
  session?: SessionInfo | null;
}

export type SessionEvent =
  | AuthEvent
  | { type: 'session.logout' }
  | { type: 'session.retry' }
  | { type: 'session.refresh' }
  | { type: 'activation.submit'; code: string };

/** Stand-in for effects that src/app provides; calling it means the wiring is missing. */
const notProvided = (actor: string) => notProvidedBy('session', actor);

/** Reads `{ code, status }` from what an actor rejected with (ApiError, NetworkError, …). */
export const toSessionError = (error: unknown): SessionError => machineErrorOf(error);

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput,
    tags: {} as 'busy' | 'signedIn' | 'signedOut' | 'partial' | 'error' | 'activationError',
  },
  actors: {
    /** `POST /login` with the token; resolves with the login answer. */
    login: fromPromise<SessionInfo, { token: string }>(notProvided('login')),
    /** `POST /user/activate`; resolves with the refreshed login answer. */
    activate: fromPromise<SessionInfo, { code: string }>(notProvided('activate')),
    /** Ends the session at the authentication provider (`POST /auth/logout`). */
    logout: fromPromise<void, { token: string | null }>(notProvided('logout')),
    /** Forwards the sign-in widget's events (services.authEvents) to the machine. */
    authEvents: fromCallback<EventObject>(() => undefined),
  },
  actions: {
    /** Writes the token where the API client and the next page load find it. */
    storeToken: (_, _params: { token: string; expiresAt: number | null }) => undefined,
    /** Caches the session (without the API client) in local storage under `session`. */
    storeSession: (_, _params: { session: SessionInfo }) => undefined,
    /** Removes token and cached session from the browser. */
    forgetSession: () => undefined,
    /** Tells the widget (and any other listener) that the user signed out. */
    announceLogout: () => undefined,
    clear: assign({ token: null, expiresAt: null, session: null, error: null }),
  },
  guards: {
    hasToken: ({ context }) => context.token !== null,
    hasCachedSession: ({ context }) => context.session !== null,
    isActive: ({ context }) => context.session?.active === true,
    isUnauthorized: ({ event }) => 'error' in event && toSessionError(event.error).status === 401,
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({
    token: input.token ?? null,
    expiresAt: input.expiresAt ?? null,
    session: input.token ? (input.session ?? null) : null,
    error: null,
  }),
  invoke: { id: 'authEvents', src: 'authEvents' },
  initial: 'restoring',
  on: {
    'session-created': {
      target: '.loggingIn',
      reenter: true,
      actions: [
        assign(({ event }) => ({
          token: event.token,
          expiresAt:
            event.expiresInSeconds === null ? null : Date.now() + event.expiresInSeconds * 1000,
          error: null,
        })),
        {
          type: 'storeToken',
          // Without "Angemeldet bleiben" the token cookie ends with the browser (no expiry).
          params: ({ context, event }) => ({
            token: context.token!,
            expiresAt: event.persistent === false ? null : context.expiresAt,
          }),
        },
      ],
    },
    'session-expired': { target: '.signedOut', actions: ['forgetSession', 'clear'] },
    'user-logged-out': { target: '.signedOut', actions: ['forgetSession', 'clear'] },
    'user-deleted': { target: '.signedOut', actions: ['forgetSession', 'clear'] },
  },
  states: {
    /** Transient: decides from what was restored. */
    restoring: {
      always: [
        { guard: 'hasCachedSession', target: 'signedIn' },
        { guard: 'hasToken', target: 'loggingIn' },
        { target: 'signedOut', actions: ['forgetSession'] },
      ],
    },
    signedOut: { tags: ['signedOut'] },
    loggingIn: {
      tags: ['busy'],
      invoke: {
        id: 'login',
        src: 'login',
        input: ({ context }) => ({ token: context.token! }),
        onDone: {
          target: 'signedIn',
          actions: [
            assign({ session: ({ event }) => event.output, error: null }),
            { type: 'storeSession', params: ({ event }) => ({ session: event.output }) },
          ],
        },
        onError: [
          {
            guard: 'isUnauthorized',
            target: 'signedOut',
            actions: ['forgetSession', 'clear'],
          },
          {
            target: 'partiallyLoggedIn',
            actions: assign({ error: ({ event }) => toSessionError(event.error) }),
          },
        ],
      },
    },
    /** The provider signed the person in, but the product's login call failed. */
    partiallyLoggedIn: {
      tags: ['error', 'partial'],
      on: {
        'session.retry': { target: 'loggingIn' },
        'session.logout': { target: 'loggingOut' },
      },
    },
    signedIn: {
      tags: ['signedIn'],
      initial: 'routing',
      on: {
        'session.logout': { target: 'loggingOut' },
        'session.refresh': { target: 'loggingIn' },
      },
      states: {
        routing: {
          always: [{ guard: 'isActive', target: 'active' }, { target: 'inactive' }],
        },
        active: {},
        inactive: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                'activation.submit': { target: 'activating', actions: assign({ error: null }) },
              },
            },
            activating: {
              tags: ['busy'],
              invoke: {
                id: 'activate',
                src: 'activate',
                input: ({ event }) => ({
                  code: event.type === 'activation.submit' ? event.code : '',
                }),
                onDone: {
                  target: '#session.signedIn.routing',
                  actions: [
                    assign({ session: ({ event }) => event.output, error: null }),
                    { type: 'storeSession', params: ({ event }) => ({ session: event.output }) },
                  ],
                },
                onError: {
                  target: 'failed',
                  actions: assign({ error: ({ event }) => toSessionError(event.error) }),
                },
              },
            },
            failed: {
              tags: ['error', 'activationError'],
              on: {
                'activation.submit': { target: 'activating', actions: assign({ error: null }) },
              },
            },
          },
        },
      },
    },
    loggingOut: {
      tags: ['busy'],
      invoke: {
        id: 'logout',
        src: 'logout',
        input: ({ context }) => ({ token: context.token }),
        // Signed out here either way: a 401 means the provider had ended the session already.
        onDone: { target: 'signedOut', actions: ['forgetSession', 'clear', 'announceLogout'] },
        onError: { target: 'signedOut', actions: ['forgetSession', 'clear', 'announceLogout'] },
      },
    },
  },
});
