import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { createActor, type fromPromise } from 'xstate';
import { createApiClient } from '../../src/api/client';
import { createI18n } from '../../src/i18n';
import { loadCoachesPageActor } from '../../src/machines/actors/staff/coaches';
import { loadEventsPageActor } from '../../src/machines/actors/staff/events';
import { coachFormSchema } from '../../src/forms/coach-staff-form';
import { confirmActionMachine } from '../../src/machines/confirm-action.machine';
import { recordDetailMachine } from '../../src/machines/record-detail.machine';
import { zodFieldErrors } from '../../src/machines/record-form.machine';
import { editUserSchema, newUserSchema } from '../../src/forms/user-staff-form';
import { ConfirmActionPanel } from '../../src/views/coaches/ConfirmActionPanel';
import { eventActionLabel } from '../../src/views/events/actions';
import { readLocales } from '../support/locales';
import { describeModel, done, failed, startMachine } from '../support/model';

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

const ASK = { type: 'action.ask', payload: { id: 'c-1', active: false } };

const CONFLICT = Object.assign(new Error('409'), {
  code: 'coach_has_future_appointments',
  status: 409,
});

describeModel('confirm-action machine, model-based against its panel', {
  machine: confirmActionMachine,
  plans: [
    {
      events: [
        { type: 'action.ask', payload: { id: 'c-1', active: false } },
        { type: 'action.confirm' },
        { type: 'action.abort' },
        { type: 'action.retry' },
        done('0.confirmAction.running', null),
        failed('0.confirmAction.running', CONFLICT),
      ],
      serialize: (s) => ({ payload: s.context.payload, error: s.context.error }),
      // Shortest paths reach every state; these walk every transition too (abort, success, retry).
      walks: [
        [
          ASK,
          { type: 'action.abort' },
          ASK,
          { type: 'action.confirm' },
          done('0.confirmAction.running', null),
        ],
        [
          ASK,
          { type: 'action.confirm' },
          failed('0.confirmAction.running', CONFLICT),
          { type: 'action.retry' },
          done('0.confirmAction.running', null),
        ],
        [
          ASK,
          { type: 'action.confirm' },
          failed('0.confirmAction.running', CONFLICT),
          { type: 'action.abort' },
        ],
      ],
    },
  ],
  start: () => {
    const done: unknown[] = [];
    const started = startMachine(confirmActionMachine, {
      actions: {
        notifyDone: (_: unknown, params: { payload: unknown }) => void done.push(params.payload),
      },
    });
    render(
      <I18nextProvider i18n={i18n}>
        <ConfirmActionPanel
          actorRef={started.actor}
          question="Anna Berg deaktivieren?"
          confirmLabel="Ja, deaktivieren"
        />
      </I18nextProvider>,
    );
    return {
      ...started,
      run: started.fakes.runAction!,
      done,
      expectedRuns: 0,
      expectedDone: 0,
      user: userEvent.setup(),
    };
  },
  wrap: (step) => act(step),
  events: {
    'action.confirm': async (_, r) => {
      await r.user.click(screen.getByRole('button', { name: 'Ja, deaktivieren' }));
      r.expectedRuns += 1;
    },
    'action.abort': (_, r) => r.user.click(screen.getByRole('button', { name: 'Abbrechen' })),
    'action.retry': async (_, r) => {
      await r.user.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
      r.expectedRuns += 1;
    },
    'xstate.done.actor.0.confirmAction.running': (_, r) => {
      r.run.latest().resolve(null);
      r.expectedDone += 1;
    },
  },
  states: {
    '#confirmAction.idle': (_, r) => {
      expect(screen.queryByRole('alertdialog')).toBeNull();
      expect(r.done).toHaveLength(r.expectedDone);
    },
    '#confirmAction.confirming': (_, r) => {
      const dialog = screen.getByRole('alertdialog', { name: 'Anna Berg deaktivieren?' });
      expect(dialog.querySelector('button[aria-busy="true"]')).toBeNull();
      // Asking sends nothing: only a confirmation runs the action.
      expect(r.run.calls).toHaveLength(r.expectedRuns);
    },
    '#confirmAction.running': (_, r) => {
      expect(
        screen.getByRole('button', { name: 'Wird ausgeführt …' }).getAttribute('aria-busy'),
      ).toBe('true');
      expect(r.run.calls).toHaveLength(r.expectedRuns);
      expect(r.run.latest().input).toEqual({ id: 'c-1', active: false });
    },
    '#confirmAction.failed': (_, r) => {
      expect(screen.getByRole('alert').textContent).toContain('noch anstehende Termine');
      screen.getByRole('button', { name: 'Erneut versuchen' });
      expect(r.done).toHaveLength(r.expectedDone);
    },
  },
});

const NOT_FOUND = Object.assign(new Error('404'), { code: 'not_found', status: 404 });
const NETWORK = Object.assign(new Error('offline'), { code: 'network_error' });

describeModel('record-detail machine, model-based', {
  machine: recordDetailMachine,
  plans: [
    {
      input: { id: 'c-1' },
      events: [
        done('loadDetail', { id: 'c-1' }),
        failed('loadDetail', NETWORK),
        failed('loadDetail', NOT_FOUND),
        { type: 'detail.retry' },
        { type: 'detail.reload' },
      ],
      serialize: (s) => ({ record: s.context.record, error: s.context.error }),
    },
  ],
  start: () => ({
    ...startMachine(recordDetailMachine, { input: { id: 'c-1' } }),
    loads: 1,
    lastError: null as unknown,
  }),
  events: {
    'xstate.error.actor.loadDetail': (event, r) => {
      r.lastError = event.error;
      r.fakes.loadDetail!.latest().reject(r.lastError);
    },
    'detail.retry': (event, r) => {
      // A missing record is not loaded again.
      if ((r.lastError as { code?: string } | null)?.code !== 'not_found') r.loads += 1;
      r.actor.send(event);
    },
    'detail.reload': (event, r) => {
      r.loads += 1;
      r.actor.send(event);
    },
  },
  states: {
    '#recordDetail.loading': (_, r) => {
      expect(r.fakes.loadDetail!.calls).toHaveLength(r.loads);
      expect(r.fakes.loadDetail!.latest().input).toEqual({ id: 'c-1' });
    },
    '#recordDetail.shown': (s) => expect(s.context.record).toEqual({ id: 'c-1' }),
    '#recordDetail.failed': (s, r) => {
      expect(s.hasTag('error')).toBe(true);
      expect(s.can({ type: 'detail.retry' })).toBe(
        (r.lastError as { code: string }).code !== 'not_found',
      );
    },
  },
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
      return new Response(JSON.stringify(answer(url)), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
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
    if (url.pathname === '/coach/search')
      return { coaches: COACHES.filter((c) => c.active).slice(0, 3) };
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
    const page = await runActor(loadCoachesPageActor(api), {
      page: 1,
      limit: 10,
      filters: { search: 'Berg' },
    });
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
    const page = await runActor(loadCoachesPageActor(api), {
      page: 2,
      limit: 10,
      filters: { active: 'false' },
    });
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
    await runActor(loadEventsPageActor(api), {
      page: 3,
      limit: 10,
      filters: { client: CLIENT, showAllEvents: 'true' },
    });
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
    await runActor(loadEventsPageActor(api), {
      page: 1,
      limit: 25,
      filters: { view: 'audit', client: CLIENT },
    });
    expect(urls[0]!.pathname).toBe('/businessevents');
    expect(Object.fromEntries(urls[0]!.searchParams)).toEqual({
      page: '1',
      pageSize: '25',
      clientId: CLIENT,
    });
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
          for (const m of readFileSync(file, 'utf8').matchAll(/\btype: '([a-z_]+\.[a-z_]+)'/g))
            found.add(m[1]!);
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
    const untranslated = types.filter((type) =>
      eventActionLabel(t, type).startsWith('Sonstiges Ereignis'),
    );
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
    ).toEqual({
      title: 'Dr.',
      firstName: 'Anna',
      lastName: 'Berg',
      email: 'anna@example.org',
      telephone: null,
      takesInitialAppointments: false,
    });
  });

  it('asks for the coach record of a COACH account', () => {
    expect(errors(newUserSchema, { email: 'neu@example.org', role: 'COACH', coachId: '' })).toEqual(
      {
        coachId: 'value_missing',
      },
    );
    expect(errors(editUserSchema, { role: 'ADMIN', coachId: '' })).toEqual({});
    expect(errors(newUserSchema, { email: '', role: 'ADMIN', coachId: '' })).toEqual({
      email: 'value_missing',
    });
  });
});
