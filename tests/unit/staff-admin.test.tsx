import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise, type EventObject, type SnapshotFrom } from 'xstate';
import { getStateNodes, TestModel, type StatePath } from 'xstate/graph';
import { createApiClient } from '../../src/api/client';
import { createI18n } from '../../src/i18n';
import { loadCoachesPageActor } from '../../src/machines/actors/staff/coaches';
import { loadEventsPageActor } from '../../src/machines/actors/staff/events';
import { coachFormSchema } from '../../src/machines/coach-staff-form';
import { confirmActionMachine } from '../../src/machines/confirm-action.machine';
import { recordDetailMachine } from '../../src/machines/record-detail.machine';
import { zodFieldErrors } from '../../src/machines/record-form.machine';
import { editUserSchema, newUserSchema } from '../../src/machines/user-staff-form';
import { ConfirmActionPanel } from '../../src/views/coaches/ConfirmActionPanel';
import { eventActionLabel } from '../../src/views/events/actions';
import { readLocales } from '../support/locales';

/**
 * Staff workspace part 2 (coaches, users, events): the two small machines it adds, model-based
 * (the confirmation before deactivating, played against its panel; the read-only record), the
 * API adaptations of the coaches and events lists, the German action labels, and the form rules.
 */

let i18n: Awaited<ReturnType<typeof createI18n>>['i18n'];
beforeAll(async () => {
  const setup = createI18n({ lng: 'de', resources: readLocales('de', 'en'), debug: false });
  await setup.ready;
  i18n = setup.i18n;
});

const summary: Array<Record<string, unknown>> = [];
afterAll(() => {
  for (const line of summary) console.log(JSON.stringify(line));
});

const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** A fake promise actor whose calls the test settles. */
function fakeCalls<I, O>() {
  const calls: Array<{ input: I; resolve: (o: O) => void; reject: (e: unknown) => void }> = [];
  return {
    calls,
    logic: fromPromise<O, I>(
      ({ input }) => new Promise<O>((resolve, reject) => void calls.push({ input, resolve, reject })),
    ),
    latest: () => calls.at(-1)!,
  };
}

const reachedStates = (paths: ReadonlyArray<StatePath<any, EventObject>>) => {
  const reached = new Set<string>();
  for (const path of paths) {
    for (const snap of [path.state, ...path.steps.map((s) => s.state)]) {
      for (const node of (snap as unknown as { _nodes: Array<{ id: string }> })._nodes) reached.add(node.id);
    }
  }
  return reached;
};

const pathName = (path: StatePath<any, EventObject>) =>
  path.steps.map((s) => s.event.type.replace('xstate.', '')).join(' → ') || '(start)';

const CONFLICT = Object.assign(new Error('409'), { code: 'coach_has_future_appointments', status: 409 });

describe('confirm-action machine, model-based against its panel', () => {
  const EVENTS: EventObject[] = [
    { type: 'action.ask', payload: { id: 'c-1', active: false } } as EventObject,
    { type: 'action.confirm' },
    { type: 'action.abort' },
    { type: 'action.retry' },
    { type: 'xstate.done.actor.0.confirmAction.running', output: null } as EventObject,
    { type: 'xstate.error.actor.0.confirmAction.running', error: CONFLICT } as EventObject,
  ];
  const model = new TestModel(confirmActionMachine, {
    events: EVENTS as never,
    stateMatcher: ((state: { _nodes: unknown[] }, key: string) =>
      state._nodes.includes(confirmActionMachine.getStateNodeById(key))) as never,
    serializeState: (s) => {
      const snap = s as SnapshotFrom<typeof confirmActionMachine>;
      return JSON.stringify({ value: snap.value, payload: snap.context.payload, error: snap.context.error });
    },
  });
  const [ask, confirm, abort, retry, done, fail] = EVENTS as [EventObject, EventObject, EventObject, EventObject, EventObject, EventObject];
  // Shortest paths reach every state; these walk every transition too (abort, success, retry).
  const paths = [
    ...model.getShortestPaths(),
    ...model.getPathsFromEvents([ask, abort, ask, confirm, done] as never),
    ...model.getPathsFromEvents([ask, confirm, fail, retry, done] as never),
    ...model.getPathsFromEvents([ask, confirm, fail, abort] as never),
  ];

  it('reaches every state of the machine', () => {
    const expected = getStateNodes(confirmActionMachine).map((n) => n.id);
    const reached = reachedStates(paths);
    expect(expected.filter((id) => !reached.has(id))).toEqual([]);
    summary.push({ machine: 'confirmAction', states: expected.length, paths: paths.length });
  });

  it.each(paths.map((p) => [pathName(p), p] as const))('%s', async (_name, path) => {
    const run = fakeCalls<Record<string, unknown>, unknown>();
    const done: unknown[] = [];
    const actor = createActor(
      confirmActionMachine.provide({
        actors: { runAction: run.logic },
        actions: { notifyDone: (_, params) => void done.push(params.payload) },
      }),
    ).start();
    const user = userEvent.setup();
    render(
      <I18nextProvider i18n={i18n}>
        <ConfirmActionPanel actorRef={actor} question="Anna Berg deaktivieren?" confirmLabel="Ja, deaktivieren" />
      </I18nextProvider>,
    );
    let expectedRuns = 0;
    let expectedDone = 0;
    const settle = (fn: () => void) =>
      act(async () => {
        fn();
        await flush();
      });
    await model.testPath(path, {
      events: {
        'action.ask': ({ event }: { event: EventObject }) => settle(() => actor.send(event as never)),
        'action.confirm': async () => {
          await act(() => user.click(screen.getByRole('button', { name: 'Ja, deaktivieren' })));
          expectedRuns += 1;
        },
        'action.abort': () => act(() => user.click(screen.getByRole('button', { name: 'Abbrechen' }))),
        'action.retry': async () => {
          await act(() => user.click(screen.getByRole('button', { name: 'Erneut versuchen' })));
          expectedRuns += 1;
        },
        'xstate.done.actor.0.confirmAction.running': async () => {
          await settle(() => run.latest().resolve(null));
          expectedDone += 1;
        },
        'xstate.error.actor.0.confirmAction.running': () => settle(() => run.latest().reject(CONFLICT)),
      } as never,
      states: {
        '#confirmAction.idle': () => {
          expect(screen.queryByRole('alertdialog')).toBeNull();
          expect(done).toHaveLength(expectedDone);
        },
        '#confirmAction.confirming': () => {
          const dialog = screen.getByRole('alertdialog', { name: 'Anna Berg deaktivieren?' });
          expect(dialog.querySelector('button[aria-busy="true"]')).toBeNull();
          // Asking sends nothing: only a confirmation runs the action.
          expect(run.calls).toHaveLength(expectedRuns);
        },
        '#confirmAction.running': () => {
          expect(screen.getByRole('button', { name: 'Wird ausgeführt …' }).getAttribute('aria-busy')).toBe('true');
          expect(run.calls).toHaveLength(expectedRuns);
          expect(run.latest().input).toEqual({ id: 'c-1', active: false });
        },
        '#confirmAction.failed': () => {
          expect(screen.getByRole('alert').textContent).toContain('noch anstehende Termine');
          screen.getByRole('button', { name: 'Erneut versuchen' });
          expect(done).toHaveLength(expectedDone);
        },
      } as never,
    });
    actor.stop();
  });
});

describe('record-detail machine, model-based', () => {
  const NOT_FOUND = Object.assign(new Error('404'), { code: 'not_found', status: 404 });
  const NETWORK = Object.assign(new Error('offline'), { code: 'network_error' });
  const EVENTS: EventObject[] = [
    { type: 'xstate.done.actor.0.recordDetail.loading', output: { id: 'c-1' } } as EventObject,
    { type: 'xstate.error.actor.0.recordDetail.loading', error: NETWORK } as EventObject,
    { type: 'xstate.error.actor.0.recordDetail.loading', error: NOT_FOUND } as EventObject,
    { type: 'detail.retry' },
    { type: 'detail.reload' },
  ];
  const model = new TestModel(recordDetailMachine, {
    input: { id: 'c-1' },
    events: EVENTS as never,
    stateMatcher: ((state: { _nodes: unknown[] }, key: string) =>
      state._nodes.includes(recordDetailMachine.getStateNodeById(key))) as never,
    serializeState: (s) => {
      const snap = s as SnapshotFrom<typeof recordDetailMachine>;
      return JSON.stringify({ value: snap.value, record: snap.context.record, error: snap.context.error });
    },
  });
  const paths = model.getShortestPaths();

  it('reaches every state of the machine', () => {
    const expected = getStateNodes(recordDetailMachine).map((n) => n.id);
    const reached = reachedStates(paths);
    expect(expected.filter((id) => !reached.has(id))).toEqual([]);
    summary.push({ machine: 'recordDetail', states: expected.length, paths: paths.length });
  });

  it.each(paths.map((p) => [pathName(p), p] as const))('%s', async (_name, path) => {
    const load = fakeCalls<{ id: string }, unknown>();
    const actor = createActor(recordDetailMachine.provide({ actors: { loadDetail: load.logic } }), {
      input: { id: 'c-1' },
    }).start();
    let loads = 1;
    let lastError: unknown = null;
    const settle = async (fn: () => void) => {
      fn();
      await flush();
    };
    await model.testPath(path, {
      events: {
        'xstate.done.actor.0.recordDetail.loading': () => settle(() => load.latest().resolve({ id: 'c-1' })),
        'xstate.error.actor.0.recordDetail.loading': ({ event }: { event: EventObject }) => {
          lastError = (event as unknown as { error: unknown }).error;
          return settle(() => load.latest().reject(lastError));
        },
        'detail.retry': () => {
          // A missing record is not loaded again.
          if ((lastError as { code?: string } | null)?.code !== 'not_found') loads += 1;
          return settle(() => actor.send({ type: 'detail.retry' }));
        },
        'detail.reload': () => {
          loads += 1;
          return settle(() => actor.send({ type: 'detail.reload' }));
        },
      } as never,
      states: {
        '#recordDetail.loading': () => {
          expect(load.calls).toHaveLength(loads);
          expect(load.latest().input).toEqual({ id: 'c-1' });
        },
        '#recordDetail.shown': () => expect(actor.getSnapshot().context.record).toEqual({ id: 'c-1' }),
        '#recordDetail.failed': () => {
          expect(actor.getSnapshot().hasTag('error')).toBe(true);
          expect(actor.getSnapshot().can({ type: 'detail.retry' })).toBe(
            (lastError as { code: string }).code !== 'not_found',
          );
        },
      } as never,
    });
    actor.stop();
  });
});

/** An API client whose requests the test sees, answered by `answer`. */
function fakeApi(answer: (url: URL) => unknown) {
  const urls: URL[] = [];
  const api = createApiClient({
    baseUrl: 'http://api.test',
    getToken: () => 'token',
    fetch: (async (request: Request) => {
      const url = new URL(request.url);
      urls.push(url);
      return new Response(JSON.stringify(answer(url)), { status: 200, headers: { 'content-type': 'application/json' } });
    }) as unknown as typeof fetch,
  });
  return { api, urls };
}

const coach = (n: number, active: boolean) => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  firstName: `Vorname${n}`,
  lastName: `Nachname${n}`,
  email: `coach${n}@example.org`,
  telephone: null,
  title: null,
  takesInitialAppointments: true,
  active,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
});

const runActor = <O,>(logic: ReturnType<typeof fromPromise<O, any>>, input: unknown) =>
  new Promise<O>((resolve, reject) => {
    const actor = createActor(logic, { input });
    actor.subscribe({ complete: () => resolve(actor.getSnapshot().output as O), error: reject });
    actor.start();
  });

describe('coaches list: the actor adapts the filters GET /coach lacks', () => {
  const COACHES = Array.from({ length: 130 }, (_, i) => coach(i + 1, i % 3 !== 0));
  const answer = (url: URL) => {
    if (url.pathname === '/coach/search') return { coaches: COACHES.filter((c) => c.active).slice(0, 3) };
    const page = Number(url.searchParams.get('page'));
    const limit = Number(url.searchParams.get('limit'));
    return { coaches: COACHES.slice((page - 1) * limit, page * limit), itemCount: COACHES.length };
  };

  it('without filters asks GET /coach for the page as it is', async () => {
    const { api, urls } = fakeApi(answer);
    const page = await runActor(loadCoachesPageActor(api), { page: 2, limit: 10, filters: {} });
    expect(urls.map((u) => u.pathname + u.search)).toEqual(['/coach?page=2&limit=10']);
    expect(page.itemCount).toBe(130);
    expect(page.rows).toHaveLength(10);
  });

  it('with a search asks GET /coach/search; deactivated coaches are never in a search', async () => {
    const { api, urls } = fakeApi(answer);
    const page = await runActor(loadCoachesPageActor(api), { page: 1, limit: 10, filters: { search: 'Berg' } });
    expect(urls.map((u) => u.pathname + u.search)).toEqual(['/coach/search?query=Berg&limit=50']);
    expect(page.itemCount).toBe(3);
    const none = await runActor(loadCoachesPageActor(api), {
      page: 1,
      limit: 10,
      filters: { search: 'Berg', active: 'false' },
    });
    expect(none).toEqual({ rows: [], itemCount: 0 });
    expect(urls).toHaveLength(1);
  });

  it('with the active filter reads every coach and pages the matches itself', async () => {
    const { api, urls } = fakeApi(answer);
    const page = await runActor(loadCoachesPageActor(api), { page: 2, limit: 10, filters: { active: 'false' } });
    expect(urls.map((u) => u.searchParams.get('page'))).toEqual(['1', '2']);
    const inactive = COACHES.filter((c) => !c.active);
    expect(page.itemCount).toBe(inactive.length);
    expect(page.rows).toEqual(inactive.slice(10, 20));
  });
});

describe('events list: feed or audit trail', () => {
  const CLIENT = '11111111-1111-4111-8111-111111111111';
  const answer = (url: URL) =>
    url.pathname === '/businessevents'
      ? { businessEvents: [], itemCount: 0, itemCountCapped: false }
      : { events: [], itemCount: 0, itemCountCapped: false };

  it('asks GET /events with the feed filters', async () => {
    const { api, urls } = fakeApi(answer);
    await runActor(loadEventsPageActor(api), { page: 3, limit: 10, filters: { client: CLIENT, showAllEvents: 'true' } });
    expect(urls[0]!.pathname).toBe('/events');
    expect(Object.fromEntries(urls[0]!.searchParams)).toEqual({
      page: '3',
      limit: '10',
      client: CLIENT,
      showAllEvents: 'true',
    });
  });

  it('asks GET /businessevents with pageSize and its own filter names for the audit trail', async () => {
    const { api, urls } = fakeApi(answer);
    await runActor(loadEventsPageActor(api), { page: 1, limit: 25, filters: { view: 'audit', client: CLIENT } });
    expect(urls[0]!.pathname).toBe('/businessevents');
    expect(Object.fromEntries(urls[0]!.searchParams)).toEqual({ page: '1', pageSize: '25', clientId: CLIENT });
  });
});

describe('German event labels', () => {
  /** Every event type the server records (`type: 'x.y'` passed to recordEvent). */
  function serverEventTypes(): string[] {
    const found = new Set<string>();
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const file = join(dir, name);
        if (statSync(file).isDirectory()) walk(file);
        else if (file.endsWith('.ts')) {
          for (const m of readFileSync(file, 'utf8').matchAll(/\btype: '([a-z_]+\.[a-z_]+)'/g)) found.add(m[1]!);
        }
      }
    };
    walk(join(import.meta.dirname, '../../server/features'));
    return [...found].sort();
  }

  it('translates every action the server records, and says so when one is unknown', () => {
    const t = i18n.getFixedT('de', 'staff');
    const types = serverEventTypes();
    expect(types).toContain('appointment.cancelled');
    const untranslated = types.filter((type) => eventActionLabel(t, type).startsWith('Sonstiges Ereignis'));
    expect(untranslated).toEqual([]);
    expect(eventActionLabel(t, 'appointment.cancelled')).toBe('Termin abgesagt');
    expect(eventActionLabel(t, 'user.activated')).toBe('Konto aktiviert');
    expect(eventActionLabel(t, 'something.new')).toBe('Sonstiges Ereignis (something.new)');
    expect(eventActionLabel(t, 'appointment')).toBe('Sonstiges Ereignis (appointment)');
  });
});

describe('coach and user form rules', () => {
  const errors = (schema: typeof coachFormSchema, values: Record<string, string | boolean>) => {
    const result = schema.safeParse(values);
    return result.success ? {} : zodFieldErrors(result.error);
  };

  it('names each bad coach field with a stable code', () => {
    expect(
      errors(coachFormSchema, {
        title: '',
        firstName: ' ',
        lastName: 'Berg',
        email: 'kein-at',
        telephone: 'abc',
        takesInitialAppointments: true,
      }),
    ).toEqual({ firstName: 'value_missing', email: 'invalid_email', telephone: 'invalid_phone' });
    expect(
      coachFormSchema.parse({
        title: ' Dr. ',
        firstName: 'Anna',
        lastName: 'Berg',
        email: 'anna@example.org',
        telephone: '',
        takesInitialAppointments: false,
      }),
    ).toEqual({ title: 'Dr.', firstName: 'Anna', lastName: 'Berg', email: 'anna@example.org', telephone: null, takesInitialAppointments: false });
  });

  it('asks for the coach record of a COACH account', () => {
    expect(errors(newUserSchema, { email: 'neu@example.org', role: 'COACH', coachId: '' })).toEqual({
      coachId: 'value_missing',
    });
    expect(errors(editUserSchema, { role: 'ADMIN', coachId: '' })).toEqual({});
    expect(errors(newUserSchema, { email: '', role: 'ADMIN', coachId: '' })).toEqual({ email: 'value_missing' });
  });
});
