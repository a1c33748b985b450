import { act, fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActor, fromCallback, SimulatedClock, type AnyStateMachine, type EventObject } from 'xstate';
import { getStateNodes, TestModel, type StatePath } from 'xstate/graph';
import { createI18n } from '../../src/i18n';
import { clientMeetingMachine } from '../../src/machines/client-meeting.machine';
import {
  coachMeetingMachine,
  coachMeetingStartMachine,
  type CoachMeetingMode,
} from '../../src/machines/coach-meeting.machine';
import type { CoachMeetingOverview, MeetingFinished, MeetingInfo, MeetingToken } from '../../src/machines/meeting/shared';
import { ClientMeetingView } from '../../src/views/meeting/ClientMeetingView';
import { readLocales } from '../support/locales';
import { apiError, controlled, flush } from './scheduling-fakes';

/**
 * Model-based tests (style.md, "Testing machines"): paths generated from the real meeting
 * machines with xstate/graph. The client's paths are played against the rendered view (UI
 * events by a person typing and clicking, invoke results by settling the fake API calls) and
 * each state is checked in what the person sees; the coach machine's paths (three pages) are
 * played against the machine with fake actors and checked in its context.
 */

const MIN = 60_000;
const NOW = Date.parse('2026-03-29T07:00:00Z');
const NETWORK = Object.assign(new Error('offline'), { code: 'network_error' });
const iso = (ms: number) => new Date(ms).toISOString();

function info(overrides: Partial<MeetingInfo> = {}): MeetingInfo {
  return {
    appointmentId: '55555555-5555-4555-8555-555555555555',
    startDate: iso(NOW + 5 * MIN),
    endDate: iso(NOW + 55 * MIN),
    appointmentType: 'followup',
    meetingType: 'jitsi',
    coachName: 'Clara Coach',
    cancelled: false,
    externalMeetingUrl: null,
    joinableFrom: iso(NOW - 5 * MIN),
    joinableUntil: iso(NOW + 85 * MIN),
    ...overrides,
  };
}
const OPEN = info();
/** The room opens in two hours. */
const EARLY = info({ joinableFrom: iso(NOW + 2 * 60 * MIN), joinableUntil: iso(NOW + 4 * 60 * MIN) });
const OVER = info({ joinableFrom: iso(NOW - 3 * 60 * MIN), joinableUntil: iso(NOW - MIN) });
const CANCELLED = info({ cancelled: true });
const EXTERNAL = info({ meetingType: 'xodosign', externalMeetingUrl: 'https://xodo.example/r/1' });
const TOKEN: MeetingToken = {
  domain: 'meet.example.test',
  scriptUrl: 'https://meet.example.test/external_api.js',
  roomName: 'sprechstunde-hidden',
  jwt: null,
  displayName: 'Klara M.',
  startDate: OPEN.startDate,
  endDate: OPEN.endDate,
  moderator: false,
};

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

/** Every state node id, except the transient ones (only `always`) a snapshot never rests in. */
const restingStateIds = (machine: AnyStateMachine) =>
  getStateNodes(machine.root)
    .filter(
      (n) =>
        !(n.always?.length && n.after.length === 0 && Object.keys(n.on).length === 0 && n.invoke.length === 0),
    )
    .map((n) => n.id);

function reachedStateIds(paths: Array<StatePath<any, any>>): Set<string> {
  const reached = new Set<string>();
  for (const path of paths) {
    for (const snapshot of [path.state, ...path.steps.map((s) => s.state)]) {
      for (const node of (snapshot as { _nodes: Array<{ id: string }> })._nodes) reached.add(node.id);
    }
  }
  return reached;
}

const stateMatcher = (machine: AnyStateMachine) => (state: { _nodes: unknown[] }, key: string) =>
  state._nodes.includes(machine.getStateNodeById(key));

const describePath = (path: StatePath<any, EventObject>) =>
  path.steps.map((s) => s.event.type.replace('xstate.', '')).join(' → ') || '(start)';

/** Invoke results only for the actors running in that state (others would fail the machine). */
const runningOnly = (events: EventObject[]) => (state: { children: Record<string, unknown> }) =>
  events.filter((e) => {
    const m = /^xstate\.(?:done|error)\.actor\.(.+)$/.exec(e.type);
    return !m || m[1]! in state.children;
  });

const settle = async (fn: () => void) => {
  await act(async () => {
    fn();
    await flush();
  });
};

// ---------------------------------------------------------------------------------------------
// Client

const CLIENT_EVENTS: EventObject[] = [
  { type: 'code.change', value: 'abcd-efgh-jkmn' } as EventObject,
  { type: 'code.change', value: '' } as EventObject,
  { type: 'code.submit' },
  ...[OPEN, EARLY, OVER, CANCELLED, EXTERNAL].map(
    (output) => ({ type: 'xstate.done.actor.lookupMeeting', output }) as EventObject,
  ),
  { type: 'xstate.error.actor.lookupMeeting', error: apiError(404, 'not_found') } as EventObject,
  { type: 'xstate.error.actor.lookupMeeting', error: NETWORK } as EventObject,
  { type: 'xstate.done.actor.fetchToken', output: TOKEN } as EventObject,
  { type: 'xstate.error.actor.fetchToken', error: apiError(409, 'meeting_not_open') } as EventObject,
  { type: 'room.joined' },
  { type: 'room.left' },
  { type: 'room.failed' },
  { type: 'meeting.retry' },
];

const clientModel = new TestModel(clientMeetingMachine, {
  input: { now: () => NOW },
  events: runningOnly(CLIENT_EVENTS) as never,
  stateMatcher: stateMatcher(clientMeetingMachine) as never,
  serializeState: (s) => {
    const c = (s as ReturnType<typeof clientMeetingMachine.transition>).context;
    return JSON.stringify({
      value: (s as { value: unknown }).value,
      code: c.code !== '',
      error: c.error?.code ?? null,
    });
  },
}) as unknown as TestModel<any, EventObject, any>;

function renderClient() {
  const fakes = {
    lookupMeeting: controlled<{ code: string }, MeetingInfo>(),
    fetchToken: controlled<{ code: string }, MeetingToken>(),
  };
  const rooms: unknown[] = [];
  let finished = 0;
  const actor = createActor(
    clientMeetingMachine.provide({
      actors: {
        lookupMeeting: fakes.lookupMeeting.logic,
        fetchToken: fakes.fetchToken.logic,
        videoRoom: fromCallback(({ input }) => {
          rooms.push(input);
        }),
      },
      actions: { showFinished: () => finished++ },
    }),
    { input: { now: () => NOW } },
  ).start();
  const view = render(
    <I18nextProvider i18n={i18n}>
      <ClientMeetingView actorRef={actor} />
    </I18nextProvider>,
  );
  return { actor, fakes, view, rooms, finished: () => finished };
}

const text = (s: string | RegExp) => screen.queryAllByText(s).length > 0;

describe('client meeting, model-based against the view', () => {
  const paths = clientModel.getShortestPaths();

  it('reaches every state of the machine', () => {
    const expected = restingStateIds(clientMeetingMachine);
    const reached = reachedStateIds(paths);
    expect(expected.filter((id) => !reached.has(id))).toEqual([]);
    summary.push({ machine: 'clientMeeting', states: expected.length, paths: paths.length });
  });

  it.each(paths.map((p) => [describePath(p), p] as const))('%s', async (_name, path) => {
    const r = renderClient();
    const room = () => r.view.container.querySelector('#meeting-room') as HTMLElement;
    const input = () => screen.getByLabelText('Meeting-Code');
    await clientModel.testPath(path, {
      events: {
        'code.change': ({ event }) =>
          settle(() => fireEvent.change(input(), { target: { value: (event as any).value } })),
        'code.submit': () => settle(() => fireEvent.click(screen.getByRole('button', { name: 'Zum Videotermin' }))),
        'meeting.retry': () => settle(() => fireEvent.click(screen.getByRole('button', { name: 'Erneut versuchen' }))),
        'xstate.done.actor.lookupMeeting': ({ event }) => settle(() => r.fakes.lookupMeeting.resolve((event as any).output)),
        'xstate.error.actor.lookupMeeting': ({ event }) => settle(() => r.fakes.lookupMeeting.reject((event as any).error)),
        'xstate.done.actor.fetchToken': ({ event }) => settle(() => r.fakes.fetchToken.resolve((event as any).output)),
        'xstate.error.actor.fetchToken': ({ event }) => settle(() => r.fakes.fetchToken.reject((event as any).error)),
        'room.joined': () => settle(() => r.actor.send({ type: 'room.joined' })),
        'room.left': () => settle(() => r.actor.send({ type: 'room.left' })),
        'room.failed': () => settle(() => r.actor.send({ type: 'room.failed' })),
      },
      states: {
        'clientMeeting.enteringCode': () => {
          expect(input()).toBeTruthy();
          expect(room().hidden).toBe(true);
        },
        'clientMeeting.lookingUp': () => {
          expect(text('Videotermin wird geladen …')).toBe(true);
          expect(screen.queryByLabelText('Meeting-Code')).toBeNull();
        },
        'clientMeeting.waiting': () => {
          expect(text('Gleich geht es los')).toBe(true);
          expect(text('Der Videoraum öffnet am 29.03.2026 um 11:00 Uhr.')).toBe(true);
          expect(screen.getByRole('timer').textContent).toBe('Noch 2:00:00 bis zum Einlass');
          expect(screen.getByText(/mit Clara Coach/)).toBeTruthy();
        },
        'clientMeeting.joining': () => {
          expect(text('Verbindung zum Videoraum wird hergestellt …')).toBe(true);
          expect(room().hidden).toBe(true);
        },
        'clientMeeting.room': () => {
          expect(room().hidden).toBe(false);
          expect(r.rooms.at(-1)).toEqual({ token: TOKEN, containerId: 'meeting-room', lang: 'de' });
        },
        'clientMeeting.room.connecting': () => {
          expect(text('Verbindung zum Videoraum wird hergestellt …')).toBe(true);
        },
        'clientMeeting.room.inMeeting': () => {
          expect(text('Verbindung zum Videoraum wird hergestellt …')).toBe(false);
          expect(room().hidden).toBe(false);
        },
        'clientMeeting.finished': () => {
          expect(r.finished()).toBe(1);
        },
        'clientMeeting.invalidCode': () => {
          expect(screen.getByRole('alert').textContent).toBe(
            'Dieser Meeting-Code ist ungültig. Bitte prüfen Sie Ihre Eingabe.',
          );
          expect(input().getAttribute('aria-invalid')).toBe('true');
        },
        'clientMeeting.failed': () => {
          expect(screen.getByRole('button', { name: 'Erneut versuchen' })).toBeTruthy();
          const message = screen.getByRole('alert').textContent ?? '';
          expect(
            [
              'Keine Verbindung zum Server.',
              'Der Videoraum ist gerade nicht geöffnet.',
              'Der Videoraum konnte nicht geladen werden.',
            ].some((m) => message.includes(m)),
            message,
          ).toBe(true);
          expect(room().hidden).toBe(true);
        },
        'clientMeeting.cancelled': () => {
          expect(screen.getByRole('alert').textContent).toBe('Dieser Termin wurde abgesagt.');
        },
        'clientMeeting.over': () => {
          expect(text('Dieser Videotermin ist vorbei.')).toBe(true);
        },
        'clientMeeting.external': () => {
          expect(screen.getByRole('link', { name: 'Videotermin öffnen' }).getAttribute('href')).toBe(
            'https://xodo.example/r/1',
          );
        },
      },
    });
    r.view.unmount();
    r.actor.stop();
  });
});

// ---------------------------------------------------------------------------------------------
// Coach

function overview(window: MeetingInfo, extra: Partial<CoachMeetingOverview['appointment']> = {}): CoachMeetingOverview {
  return {
    appointment: { cancelledAt: null, meetingType: 'jitsi', ...extra } as CoachMeetingOverview['appointment'],
    client: {} as CoachMeetingOverview['client'],
    earlierAppointments: [],
    joinableFrom: window.joinableFrom,
    joinableUntil: window.joinableUntil,
    externalJoinUrl: extra.meetingType && extra.meetingType !== 'jitsi' ? 'https://xodo.example/r/1' : null,
    finishedAt: null,
  };
}
const FINISHED: MeetingFinished = { appointmentId: OPEN.appointmentId, finishedAt: iso(NOW) };

const COACH_EVENTS: EventObject[] = [
  ...[
    overview(OPEN),
    overview(EARLY),
    overview(OVER),
    overview(OPEN, { cancelledAt: iso(NOW) }),
    overview(OPEN, { meetingType: 'arztkonsultation' }),
  ].map((output) => ({ type: 'xstate.done.actor.lookupCoachMeeting', output }) as EventObject),
  { type: 'xstate.error.actor.lookupCoachMeeting', error: apiError(404, 'not_found') } as EventObject,
  { type: 'xstate.error.actor.lookupCoachMeeting', error: NETWORK } as EventObject,
  { type: 'xstate.done.actor.fetchCoachToken', output: { ...TOKEN, moderator: true } } as EventObject,
  { type: 'xstate.error.actor.fetchCoachToken', error: NETWORK } as EventObject,
  { type: 'xstate.done.actor.recordFinished', output: FINISHED } as EventObject,
  { type: 'xstate.error.actor.recordFinished', error: apiError(409, 'meeting_not_started') } as EventObject,
  { type: 'meeting.join' },
  { type: 'meeting.retry' },
  { type: 'room.joined' },
  { type: 'room.left' },
  { type: 'room.failed' },
];

const coachModel = (mode: CoachMeetingMode) =>
  new TestModel(coachMeetingMachine, {
    input: { code: 'abcd-efgh-jkmn', mode, now: () => NOW },
    events: runningOnly(COACH_EVENTS) as never,
    stateMatcher: stateMatcher(coachMeetingMachine) as never,
  }) as unknown as TestModel<any, EventObject, any>;

describe('coach meeting, model-based against the machine', () => {
  const modes: CoachMeetingMode[] = ['overview', 'join', 'finished'];
  const all = modes.map((mode) => ({ mode, model: coachModel(mode), paths: coachModel(mode).getShortestPaths() }));

  it('reaches every state of the machine over its three pages', () => {
    const expected = restingStateIds(coachMeetingMachine);
    const reached = reachedStateIds(all.flatMap((m) => m.paths));
    expect(expected.filter((id) => !reached.has(id))).toEqual([]);
    summary.push({
      machine: 'coachMeeting',
      states: expected.length,
      paths: all.reduce((n, m) => n + m.paths.length, 0),
    });
  });

  const cases = all.flatMap(({ mode, model, paths }) =>
    paths.map((p) => [`${mode}: ${describePath(p)}`, mode, model, p] as const),
  );
  it.each(cases)('%s', async (_name, mode, model, path) => {
    const fakes = {
      lookupCoachMeeting: controlled<{ code: string }, CoachMeetingOverview>(),
      fetchCoachToken: controlled<{ code: string }, MeetingToken>(),
      recordFinished: controlled<{ code: string }, MeetingFinished>(),
    };
    const calls = { openRoom: 0, showFinished: 0 };
    const actor = createActor(
      coachMeetingMachine.provide({
        actors: { ...Object.fromEntries(Object.entries(fakes).map(([k, f]) => [k, f.logic])), videoRoom: fromCallback(() => undefined) },
        actions: { openRoom: () => calls.openRoom++, showFinished: () => calls.showFinished++ },
      }),
      { input: { code: 'abcd-efgh-jkmn', mode, now: () => NOW } },
    ).start();
    const snap = () => actor.getSnapshot();
    const done = (name: keyof typeof fakes) => async ({ event }: { event: EventObject }) => {
      fakes[name].resolve((event as any).output);
      await flush();
    };
    const fail = (name: keyof typeof fakes) => async ({ event }: { event: EventObject }) => {
      fakes[name].reject((event as any).error);
      await flush();
    };
    await model.testPath(path, {
      events: {
        'xstate.done.actor.lookupCoachMeeting': done('lookupCoachMeeting'),
        'xstate.error.actor.lookupCoachMeeting': fail('lookupCoachMeeting'),
        'xstate.done.actor.fetchCoachToken': done('fetchCoachToken'),
        'xstate.error.actor.fetchCoachToken': fail('fetchCoachToken'),
        'xstate.done.actor.recordFinished': done('recordFinished'),
        'xstate.error.actor.recordFinished': fail('recordFinished'),
        'meeting.join': () => void actor.send({ type: 'meeting.join' }),
        'meeting.retry': () => void actor.send({ type: 'meeting.retry' }),
        'room.joined': () => void actor.send({ type: 'room.joined' }),
        'room.left': () => void actor.send({ type: 'room.left' }),
        'room.failed': () => void actor.send({ type: 'room.failed' }),
      },
      states: {
        'coachMeeting.lookingUp': () => expect(snap().hasTag('busy')).toBe(true),
        'coachMeeting.overview': () => {
          expect(mode).toBe('overview');
          expect(snap().can({ type: 'meeting.join' })).toBe(
            Date.parse(snap().context.overview!.joinableFrom) <= NOW &&
              NOW <= Date.parse(snap().context.overview!.joinableUntil),
          );
        },
        'coachMeeting.waiting': () => expect(snap().context.overview!.joinableFrom).toBe(EARLY.joinableFrom),
        'coachMeeting.joining': () => expect(fakes.fetchCoachToken.calls.at(-1)).toEqual({ code: 'abcd-efgh-jkmn' }),
        'coachMeeting.room': () => expect(snap().context.token?.moderator).toBe(true),
        'coachMeeting.room.connecting': () => expect(snap().hasTag('busy')).toBe(true),
        'coachMeeting.room.inMeeting': () => expect(snap().hasTag('room')).toBe(true),
        'coachMeeting.left': () => expect(calls.showFinished).toBe(1),
        'coachMeeting.recording': () => expect(mode).toBe('finished'),
        'coachMeeting.finished': () => expect(snap().context.finished).toEqual(FINISHED),
        'coachMeeting.invalidCode': () => expect(snap().context.error).toEqual({ code: 'invalid_meeting_code' }),
        'coachMeeting.cancelled': () => expect(snap().context.overview!.appointment.cancelledAt).not.toBeNull(),
        'coachMeeting.over': () => expect(snap().context.overview!.joinableUntil).toBe(OVER.joinableUntil),
        'coachMeeting.external': () => expect(snap().context.overview!.externalJoinUrl).toBe('https://xodo.example/r/1'),
        'coachMeeting.failed': () => {
          expect(snap().hasTag('error')).toBe(true);
          expect(['network_error', 'meeting_not_started', 'video_unavailable']).toContain(snap().context.error?.code);
        },
      },
    });
    actor.stop();
  });
});

// ---------------------------------------------------------------------------------------------
// Coach start page (/coach/meeting)

const START_EVENTS: EventObject[] = [
  { type: 'xstate.done.actor.loadUpcoming', output: [] } as EventObject,
  { type: 'xstate.error.actor.loadUpcoming', error: NETWORK } as EventObject,
  { type: 'xstate.done.actor.lookupCoachMeeting', output: overview(OPEN) } as EventObject,
  { type: 'xstate.error.actor.lookupCoachMeeting', error: apiError(404, 'not_found') } as EventObject,
  { type: 'code.change', value: 'abcd-efgh-jkmn' } as EventObject,
  { type: 'code.change', value: '' } as EventObject,
  { type: 'code.submit' },
  { type: 'upcoming.retry' },
  { type: 'xstate.after.upcomingRefresh.coachMeetingStart.upcoming.loaded' },
];

const startModel = new TestModel(coachMeetingStartMachine, {
  input: { now: () => NOW },
  events: runningOnly(START_EVENTS) as never,
  stateMatcher: stateMatcher(coachMeetingStartMachine) as never,
  serializeState: (s) => {
    const c = (s as ReturnType<typeof coachMeetingStartMachine.transition>).context;
    return JSON.stringify({ value: (s as { value: unknown }).value, code: c.code !== '', error: c.error?.code ?? null });
  },
}) as unknown as TestModel<any, EventObject, any>;

describe('coach start page, model-based against the machine', () => {
  const paths = startModel.getShortestPaths();

  it('reaches every state of the machine', () => {
    const expected = restingStateIds(coachMeetingStartMachine);
    const reached = reachedStateIds(paths);
    expect(expected.filter((id) => !reached.has(id))).toEqual([]);
    summary.push({ machine: 'coachMeetingStart', states: expected.length, paths: paths.length });
  });

  it.each(paths.map((p) => [describePath(p), p] as const))('%s', async (_name, path) => {
    const fakes = {
      loadUpcoming: controlled<{ forDate: string }, CoachMeetingOverview['earlierAppointments']>(),
      lookupCoachMeeting: controlled<{ code: string }, CoachMeetingOverview>(),
    };
    const clock = new SimulatedClock();
    clock.set(NOW);
    const opened: string[] = [];
    const actor = createActor(
      coachMeetingStartMachine.provide({
        actors: { loadUpcoming: fakes.loadUpcoming.logic, lookupCoachMeeting: fakes.lookupCoachMeeting.logic },
        actions: { openMeeting: (_, p) => opened.push(p.code) },
      }),
      { input: { now: () => NOW }, clock },
    ).start();
    const snap = () => actor.getSnapshot();
    const settleFake = (name: keyof typeof fakes, how: 'resolve' | 'reject') => async ({ event }: { event: EventObject }) => {
      if (how === 'resolve') fakes[name].resolve((event as any).output);
      else fakes[name].reject((event as any).error);
      await flush();
    };
    await startModel.testPath(path, {
      events: {
        'xstate.done.actor.loadUpcoming': settleFake('loadUpcoming', 'resolve'),
        'xstate.error.actor.loadUpcoming': settleFake('loadUpcoming', 'reject'),
        'xstate.done.actor.lookupCoachMeeting': settleFake('lookupCoachMeeting', 'resolve'),
        'xstate.error.actor.lookupCoachMeeting': settleFake('lookupCoachMeeting', 'reject'),
        'code.change': ({ event }) => void actor.send(event as never),
        'code.submit': () => void actor.send({ type: 'code.submit' }),
        'upcoming.retry': () => void actor.send({ type: 'upcoming.retry' }),
        'xstate.after.upcomingRefresh.coachMeetingStart.upcoming.loaded': () => void clock.increment(60_000),
      },
      states: {
        'coachMeetingStart.upcoming.loading': () =>
          expect(fakes.loadUpcoming.calls.at(-1)).toEqual({ forDate: '2026-03-29' }),
        'coachMeetingStart.upcoming.loaded': () => expect(snap().context.upcoming).toEqual([]),
        'coachMeetingStart.upcoming.failed': () => expect(snap().can({ type: 'upcoming.retry' })).toBe(true),
        'coachMeetingStart.codeForm.editing': () =>
          expect([null, 'no_meeting_code', 'invalid_meeting_code']).toContain(snap().context.error?.code ?? null),
        'coachMeetingStart.codeForm.checking': () =>
          expect(fakes.lookupCoachMeeting.calls.at(-1)).toEqual({ code: 'abcd-efgh-jkmn' }),
        'coachMeetingStart.codeForm.opened': () => expect(opened).toEqual(['abcd-efgh-jkmn']),
      },
    });
    actor.stop();
  });
});
