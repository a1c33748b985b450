import { describe, expect, it } from 'vitest';
import { createActor, type AnyEventObject, type SnapshotFrom } from 'xstate';
import type { ApiClient } from '../../src/api/client';
import { decideAccess } from '../../src/app/access';
import { sessionStatus } from '../../src/views/session-status';
import { createAuthEvents } from '../../src/ports/auth-events';
import { createSessionEffects, type BrowserSessionStore } from '../../src/machines/actors/session';
import {
  sessionMachine,
  type SessionEvent,
  type SessionInfo,
  type SessionInput,
} from '../../src/machines/session.machine';
import { describeModel, flush } from '../support/model';

/**
 * Model-based tests of the session lifecycle (the specification's states and transitions): paths
 * generated from the machine itself with xstate/graph, each run against a live actor with the real
 * effects (src/machines/actors/session.ts) on a fake API, a fake provider logout, the real widget
 * channel and an in-memory cookie/local storage.
 */

type Snapshot = SnapshotFrom<typeof sessionMachine>;

const COACH: SessionInfo = {
  userId: '5b0c6f0e-8a4b-4c61-9a55-0d8f5b7b1e01',
  role: 'COACH',
  active: true,
  coach: { id: '0f6c3a51-2a57-4e53-8d0b-5d9d7a6f8e02', name: 'Lena Berg' },
};
const NEWCOMER: SessionInfo = { ...COACH, role: 'NONE', active: false, coach: null };
const ACTIVATED: SessionInfo = { ...COACH, userId: '7d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6' };

const problem = (status: number, code: string) => Object.assign(new Error(code), { status, code });

// The events the model may take, including actor results (xstate.done/error.actor.<id>).
const EVENTS = [
  { type: 'session-created', token: 'token-new', userId: COACH.userId, expiresInSeconds: 3600 },
  { type: 'session-expired' },
  { type: 'user-logged-out' },
  { type: 'user-deleted' },
  { type: 'session.logout' },
  { type: 'session.retry' },
  { type: 'session.refresh' },
  { type: 'activation.submit', code: 'ABCD-EFGH-JKMN' },
  { type: 'xstate.done.actor.login', output: COACH },
  { type: 'xstate.done.actor.login', output: NEWCOMER },
  { type: 'xstate.error.actor.login', error: problem(401, 'unauthorized') },
  { type: 'xstate.error.actor.login', error: problem(503, 'http_503') },
  { type: 'xstate.done.actor.activate', output: ACTIVATED },
  { type: 'xstate.error.actor.activate', error: problem(400, 'activation_code_invalid') },
  { type: 'xstate.done.actor.logout', output: undefined },
  { type: 'xstate.error.actor.logout', error: problem(401, 'unauthorized') },
] as unknown as SessionEvent[];

// Where a run may start: what the page finds in the browser at load.
const STARTS: Array<{ name: string; input: SessionInput }> = [
  { name: 'nothing stored', input: {} },
  { name: 'token only', input: { token: 'token-old' } },
  { name: 'token and active session', input: { token: 'token-old', session: COACH } },
  { name: 'token and inactive session', input: { token: 'token-old', session: NEWCOMER } },
];

const serialize = (s: Snapshot) => [
  s.context.token === null ? null : 'token',
  s.context.session?.active ?? null,
  s.context.error?.code ?? null,
];

interface Call {
  kind: 'login' | 'activate' | 'logout';
  init: unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** A live actor with the real effects around fakes that record and hold every call. */
function harness(input: SessionInput) {
  const calls: Call[] = [];
  const hold = (kind: Call['kind'], init: unknown) =>
    new Promise((resolve, reject) => calls.push({ kind, init, resolve, reject }));
  const api = {
    POST: (path: string, init: unknown) =>
      hold(path === '/login' ? 'login' : 'activate', init).then((data) => ({ data })),
  } as unknown as ApiClient;
  /** The cookie expiry of each token written (null: until the browser closes). */
  const tokenExpiries: (number | null)[] = [];
  const stored: { token: string | null; session: SessionInfo | null } = {
    token: input.token ?? null,
    session: input.session ?? null,
  };
  const store: BrowserSessionStore = {
    readToken: () => stored.token,
    writeToken: (token, expiresAt) => {
      stored.token = token;
      tokenExpiries.push(expiresAt);
    },
    readSession: () => stored.session,
    writeSession: (session) => void (stored.session = session),
    clear: () => Object.assign(stored, { token: null, session: null }),
  };
  const authEvents = createAuthEvents();
  const heard: string[] = [];
  authEvents.subscribe((e) => heard.push(e.type));
  const effects = createSessionEffects({
    api,
    authEvents,
    store,
    providerLogout: (token) => hold('logout', { token }).then(() => undefined),
  });
  const actor = createActor(sessionMachine.provide(effects), { input }).start();
  const open = (kind: Call['kind']) => {
    const call = calls.findLast((c) => c.kind === kind);
    if (!call) throw new Error(`no ${kind} call is pending`);
    return call;
  };
  return { actor, calls, stored, tokenExpiries, authEvents, heard, open };
}

const settle = flush;

type Harness = ReturnType<typeof harness>;
const decision = (h: Harness, allowInactive = false) =>
  decideAccess(sessionStatus(h.actor.getSnapshot()), { allowInactive }, '/calendar?view=week');

/** Events from the sign-in widget come through the auth event channel. */
const fromWidget = (event: AnyEventObject, h: Harness) => h.authEvents.emit(event as never);

describeModel('session machine (model-based)', {
  machine: sessionMachine,
  plans: STARTS.map(({ name, input }) => ({
    name: `starting with ${name}`,
    input,
    events: EVENTS,
    serialize,
  })),
  start: (plan) => harness(plan.input!),
  events: {
    'session-created': fromWidget,
    'session-expired': fromWidget,
    'user-logged-out': fromWidget,
    'user-deleted': fromWidget,
    'xstate.done.actor.login': (event, h) => h.open('login').resolve(event.output),
    'xstate.error.actor.login': (event, h) => h.open('login').reject(event.error),
    'xstate.done.actor.activate': (event, h) => h.open('activate').resolve(event.output),
    'xstate.error.actor.activate': (event, h) => h.open('activate').reject(event.error),
    'xstate.done.actor.logout': (_, h) => h.open('logout').resolve(undefined),
    'xstate.error.actor.logout': (event, h) => h.open('logout').reject(event.error),
  },
  // What a caller notices in each state: storage, the pending call, the guards' decision.
  states: {
    'session.signedOut': (_, h) => {
      expect(h.stored).toEqual({ token: null, session: null });
      expect(h.actor.getSnapshot().context.token).toBeNull();
      expect(decision(h)).toEqual({
        kind: 'redirect',
        to: '/login?returnTo=%2Fcalendar%3Fview%3Dweek',
      });
    },
    'session.loggingIn': (_, h) => {
      const call = h.open('login') as { init: { headers: Record<string, string> } };
      expect(call.init.headers.Authorization).toBe(`Bearer ${h.actor.getSnapshot().context.token}`);
      expect(h.stored.token).toBe(h.actor.getSnapshot().context.token);
      expect(decision(h)).toEqual({ kind: 'wait' });
    },
    'session.partiallyLoggedIn': (_, h) => {
      expect(h.stored.token).not.toBeNull();
      expect(h.actor.getSnapshot().context.error?.code).toBeTruthy();
      expect(decision(h)).toEqual({ kind: 'partial' });
    },
    'session.signedIn.active': (_, h) => {
      expect(h.stored.session?.active).toBe(true);
      expect(h.stored.session).toEqual(h.actor.getSnapshot().context.session);
      expect(decision(h)).toEqual({ kind: 'render' });
    },
    'session.signedIn.inactive.idle': (_, h) => {
      expect(h.stored.session?.active).toBe(false);
      expect(decision(h)).toEqual({
        kind: 'redirect',
        to: '/notactive?returnTo=%2Fcalendar%3Fview%3Dweek',
      });
      expect(decision(h, true)).toEqual({ kind: 'render' });
    },
    'session.signedIn.inactive.activating': (_, h) => {
      expect(h.open('activate').init).toMatchObject({ body: { activationCode: 'ABCD-EFGH-JKMN' } });
    },
    'session.signedIn.inactive.failed': (_, h) => {
      expect(h.actor.getSnapshot().context.error).toEqual({
        code: 'activation_code_invalid',
        status: 400,
      });
      expect(h.stored.session?.active).toBe(false);
    },
    'session.loggingOut': (_, h) => {
      expect(h.open('logout').init).toEqual({ token: h.actor.getSnapshot().context.token });
    },
  },
});

describe('session machine (examples)', () => {
  it('keeps the token and calls POST /login with it after session-created', async () => {
    const h = harness({});
    h.authEvents.emit({
      type: 'session-created',
      token: 'jwt-1',
      userId: 'u1',
      expiresInSeconds: 60,
    });
    await settle();
    expect(h.actor.getSnapshot().matches('loggingIn')).toBe(true);
    h.open('login').resolve(COACH);
    await settle();
    expect(h.actor.getSnapshot().context).toMatchObject({ token: 'jwt-1', session: COACH });
    const expiresAt = h.actor.getSnapshot().context.expiresAt!;
    expect(expiresAt - Date.now()).toBeGreaterThan(55_000);
    expect(h.stored).toEqual({ token: 'jwt-1', session: COACH });
  });

  it('keeps the token cookie only until the browser closes without "Angemeldet bleiben"', async () => {
    const h = harness({});
    const created = { type: 'session-created', token: 'jwt-1', userId: 'u1', expiresInSeconds: 60 };
    h.authEvents.emit({ ...created, persistent: false } as never);
    await settle();
    expect(h.tokenExpiries).toEqual([null]);
    // The session still knows when it ends, so it is signed out in time.
    expect(h.actor.getSnapshot().context.expiresAt! - Date.now()).toBeGreaterThan(55_000);
    h.authEvents.emit(created as never);
    await settle();
    expect(h.tokenExpiries[1]! - Date.now()).toBeGreaterThan(55_000);
  });

  it('signs out at the provider and announces user-logged-out once', async () => {
    const h = harness({ token: 'jwt-1', session: COACH });
    h.actor.send({ type: 'session.logout' });
    await settle();
    h.open('logout').resolve(undefined);
    await settle();
    expect(h.actor.getSnapshot().matches('signedOut')).toBe(true);
    expect(h.heard).toEqual(['user-logged-out']);
    expect(h.stored).toEqual({ token: null, session: null });
  });

  it('an activation refreshes the session from the answer', async () => {
    const h = harness({ token: 'jwt-1', session: NEWCOMER });
    h.actor.send({ type: 'activation.submit', code: 'x' });
    await settle();
    h.open('activate').resolve(ACTIVATED);
    await settle();
    expect(h.actor.getSnapshot().matches({ signedIn: 'active' })).toBe(true);
    expect(h.stored.session).toEqual(ACTIVATED);
  });

  it('a 401 from POST /login means the token is dead: signed out, nothing kept', async () => {
    const h = harness({ token: 'jwt-stale' });
    h.open('login').reject(problem(401, 'unauthorized'));
    await settle();
    expect(h.actor.getSnapshot().matches('signedOut')).toBe(true);
    expect(h.stored).toEqual({ token: null, session: null });
  });

  it('any other failure of POST /login leaves the session partially logged in, and retry works', async () => {
    const h = harness({ token: 'jwt-1' });
    h.open('login').reject(problem(503, 'http_503'));
    await settle();
    expect(h.actor.getSnapshot().matches('partiallyLoggedIn')).toBe(true);
    expect(h.stored.token).toBe('jwt-1');
    h.actor.send({ type: 'session.retry' });
    await settle();
    expect(h.calls.filter((c) => c.kind === 'login')).toHaveLength(2);
    h.open('login').resolve(COACH);
    await settle();
    expect(h.actor.getSnapshot().matches({ signedIn: 'active' })).toBe(true);
  });

  it('a cached session is restored without a call; user-deleted clears it', async () => {
    const h = harness({ token: 'jwt-1', session: COACH });
    expect(h.actor.getSnapshot().matches({ signedIn: 'active' })).toBe(true);
    expect(h.calls).toEqual([]);
    h.authEvents.emit({ type: 'user-deleted' });
    await settle();
    expect(h.actor.getSnapshot().matches('signedOut')).toBe(true);
    expect(h.stored).toEqual({ token: null, session: null });
  });

  it('a cached session without a token is dropped', () => {
    const h = harness({ session: COACH });
    expect(h.actor.getSnapshot().matches('signedOut')).toBe(true);
    expect(h.stored.session).toBeNull();
  });
});
