import { describe, expect, it } from 'vitest';
import { createActor, type SnapshotFrom } from 'xstate';
import { getStateNodes, TestModel } from 'xstate/graph';
import type { ApiClient } from '../../src/api/client';
import { decideAccess, sessionStatus } from '../../src/app/access';
import { createAuthEvents } from '../../src/ports/auth-events';
import { createSessionEffects, type BrowserSessionStore } from '../../src/machines/actors/session';
import {
  sessionMachine,
  type SessionEvent,
  type SessionInfo,
  type SessionInput,
} from '../../src/machines/session.machine';

/**
 * Model-based tests of the session lifecycle (specification section 4): paths generated from
 * the machine itself with xstate/graph, each run against a live actor with the real effects
 * (src/machines/actors/session.ts) on a fake API, a fake provider logout, the real widget
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

const serializeState = (s: Snapshot) =>
  JSON.stringify([
    s.value,
    s.context.token === null ? null : 'token',
    s.context.session?.active ?? null,
    s.context.error?.code ?? null,
  ]);

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
  const stored: { token: string | null; session: SessionInfo | null } = {
    token: input.token ?? null,
    session: input.session ?? null,
  };
  const store: BrowserSessionStore = {
    readToken: () => stored.token,
    writeToken: (token) => void (stored.token = token),
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
  return { actor, calls, stored, authEvents, heard, open };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function stateMatcher(snapshot: Snapshot, key: string) {
  return snapshot.matches(key as never);
}

/** What a caller notices in each state: storage, the pending call, the guards' decision. */
function stateChecks(h: ReturnType<typeof harness>) {
  const decision = (allowInactive = false) =>
    decideAccess(sessionStatus(h.actor.getSnapshot()), { allowInactive }, '/calendar?view=week');
  return {
    signedOut: () => {
      expect(h.stored).toEqual({ token: null, session: null });
      expect(h.actor.getSnapshot().context.token).toBeNull();
      expect(decision()).toEqual({
        kind: 'redirect',
        to: '/login?returnTo=%2Fcalendar%3Fview%3Dweek',
      });
    },
    loggingIn: () => {
      const call = h.open('login') as { init: { headers: Record<string, string> } };
      expect(call.init.headers.Authorization).toBe(`Bearer ${h.actor.getSnapshot().context.token}`);
      expect(h.stored.token).toBe(h.actor.getSnapshot().context.token);
      expect(decision()).toEqual({ kind: 'wait' });
    },
    partiallyLoggedIn: () => {
      expect(h.stored.token).not.toBeNull();
      expect(h.actor.getSnapshot().context.error?.code).toBeTruthy();
      expect(decision()).toEqual({ kind: 'partial' });
    },
    'signedIn.active': () => {
      expect(h.stored.session?.active).toBe(true);
      expect(h.stored.session).toEqual(h.actor.getSnapshot().context.session);
      expect(decision()).toEqual({ kind: 'render' });
    },
    'signedIn.inactive.idle': () => {
      expect(h.stored.session?.active).toBe(false);
      expect(decision()).toEqual({
        kind: 'redirect',
        to: '/notactive?returnTo=%2Fcalendar%3Fview%3Dweek',
      });
      expect(decision(true)).toEqual({ kind: 'render' });
    },
    'signedIn.inactive.activating': () => {
      expect(h.open('activate').init).toMatchObject({ body: { activationCode: 'ABCD-EFGH-JKMN' } });
    },
    'signedIn.inactive.failed': () => {
      expect(h.actor.getSnapshot().context.error).toEqual({
        code: 'activation_code_invalid',
        status: 400,
      });
      expect(h.stored.session?.active).toBe(false);
    },
    loggingOut: () => {
      expect(h.open('logout').init).toEqual({ token: h.actor.getSnapshot().context.token });
    },
  };
}

function eventExecutors(h: ReturnType<typeof harness>) {
  const settleAfter = (fn: () => void) => async () => {
    fn();
    await settle();
  };
  type Ev = { event: Record<string, unknown> };
  const send = (step: Ev) => h.actor.send(step.event as SessionEvent);
  return {
    'session-created': async (step: Ev) =>
      settleAfter(() => h.authEvents.emit(step.event as never))(),
    'session-expired': async (step: Ev) =>
      settleAfter(() => h.authEvents.emit(step.event as never))(),
    'user-logged-out': async (step: Ev) =>
      settleAfter(() => h.authEvents.emit(step.event as never))(),
    'user-deleted': async (step: Ev) => settleAfter(() => h.authEvents.emit(step.event as never))(),
    'session.logout': async (step: Ev) => settleAfter(() => send(step))(),
    'session.retry': async (step: Ev) => settleAfter(() => send(step))(),
    'session.refresh': async (step: Ev) => settleAfter(() => send(step))(),
    'activation.submit': async (step: Ev) => settleAfter(() => send(step))(),
    'xstate.done.actor.login': async (step: Ev) =>
      settleAfter(() => h.open('login').resolve(step.event.output))(),
    'xstate.error.actor.login': async (step: Ev) =>
      settleAfter(() => h.open('login').reject(step.event.error))(),
    'xstate.done.actor.activate': async (step: Ev) =>
      settleAfter(() => h.open('activate').resolve(step.event.output))(),
    'xstate.error.actor.activate': async (step: Ev) =>
      settleAfter(() => h.open('activate').reject(step.event.error))(),
    'xstate.done.actor.logout': async (_step: Ev) =>
      settleAfter(() => h.open('logout').resolve(undefined))(),
    'xstate.error.actor.logout': async (step: Ev) =>
      settleAfter(() => h.open('logout').reject(step.event.error))(),
  };
}

const leafStates = getStateNodes(sessionMachine.root)
  .filter((node) => node.type === 'atomic' && !node.always)
  .map((node) => node.path.join('.'));

const plans = STARTS.map(({ name, input }) => {
  const model = new TestModel(sessionMachine, {
    events: EVENTS,
    serializeState,
    input,
    stateMatcher,
  });
  return { name, input, paths: model.getShortestPaths(), model };
});

describe('session machine (model-based)', () => {
  it('generated paths reach every state of the machine', () => {
    const reached = new Set<string>();
    for (const plan of plans) {
      for (const path of plan.paths) {
        for (const step of [...path.steps.map((s) => s.state), path.state]) {
          for (const leaf of leafStates) if (step.matches(leaf as never)) reached.add(leaf);
        }
      }
    }
    const paths = plans.reduce((n, p) => n + p.paths.length, 0);
    console.log(JSON.stringify({ machine: 'session', states: leafStates.length, paths }));
    expect([...reached].sort()).toEqual([...leafStates].sort());
  });

  for (const plan of plans) {
    describe(`starting with ${plan.name}`, () => {
      for (const path of plan.paths) {
        it(path.description, async () => {
          const h = harness(plan.input);
          await settle();
          await plan.model.testPath(path, { states: stateChecks(h), events: eventExecutors(h) });
          // The live actor ended where the model said.
          expect(h.actor.getSnapshot().value).toEqual(path.state.value);
          h.actor.stop();
        });
      }
    });
  }
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
