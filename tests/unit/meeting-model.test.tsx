import { act, fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { beforeAll, expect } from 'vitest';
import { fromCallback, SimulatedClock, type AnyEventObject } from 'xstate';
import { createI18n } from '../../src/i18n';
import { clientMeetingMachine } from '../../src/machines/client-meeting.machine';
import {
  coachMeetingMachine,
  coachMeetingStartMachine,
  type CoachMeetingMode,
} from '../../src/machines/coach-meeting.machine';
import type {
  CoachMeetingOverview,
  MeetingFinished,
  MeetingInfo,
  MeetingToken,
} from '../../src/machines/meeting/shared';
import { ClientMeetingView } from '../../src/views/meeting/ClientMeetingView';
import { readLocales } from '../support/locales';
import { describeModel, done, failed, startMachine } from '../support/model';
import { apiError } from './scheduling-fakes';

/**
 * Model-based tests (docs/style.md, "Testing machines"): paths generated from the real meeting
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
const EARLY = info({
  joinableFrom: iso(NOW + 2 * 60 * MIN),
  joinableUntil: iso(NOW + 4 * 60 * MIN),
});
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

// ---------------------------------------------------------------------------------------------
// Client

const CLIENT_EVENTS: AnyEventObject[] = [
  { type: 'code.change', value: 'abcd-efgh-jkmn' },
  { type: 'code.change', value: '' },
  { type: 'code.submit' },
  ...[OPEN, EARLY, OVER, CANCELLED, EXTERNAL].map((output) => done('lookupMeeting', output)),
  failed('lookupMeeting', apiError(404, 'not_found')),
  failed('lookupMeeting', NETWORK),
  done('fetchToken', TOKEN),
  failed('fetchToken', apiError(409, 'meeting_not_open')),
  { type: 'room.joined' },
  { type: 'room.left' },
  { type: 'room.failed' },
  { type: 'meeting.retry' },
];

function renderClient() {
  const rooms: unknown[] = [];
  let finished = 0;
  const started = startMachine(clientMeetingMachine, {
    input: { now: () => NOW },
    actors: {
      videoRoom: fromCallback(({ input }) => {
        rooms.push(input);
      }),
    },
    actions: { showFinished: () => finished++ },
  });
  const view = render(
    <I18nextProvider i18n={i18n}>
      <ClientMeetingView actorRef={started.actor} />
    </I18nextProvider>,
  );
  return { ...started, view, rooms, finished: () => finished };
}

const text = (s: string | RegExp) => screen.queryAllByText(s).length > 0;
const room = (r: ReturnType<typeof renderClient>) =>
  r.view.container.querySelector('#meeting-room') as HTMLElement;
const codeInput = () => screen.getByLabelText('Meeting-Code');

describeModel('client meeting, model-based against the view', {
  machine: clientMeetingMachine,
  plans: [
    {
      input: { now: () => NOW },
      events: CLIENT_EVENTS,
      serialize: (s) => ({ code: s.context.code !== '', error: s.context.error?.code ?? null }),
    },
  ],
  start: renderClient,
  wrap: (step) => act(step),
  events: {
    'code.change': (event) => fireEvent.change(codeInput(), { target: { value: event.value } }),
    'code.submit': () => fireEvent.click(screen.getByRole('button', { name: 'Zum Videotermin' })),
    'meeting.retry': () =>
      fireEvent.click(screen.getByRole('button', { name: 'Erneut versuchen' })),
  },
  states: {
    'clientMeeting.enteringCode': (_, r) => {
      expect(codeInput()).toBeTruthy();
      expect(room(r).hidden).toBe(true);
    },
    'clientMeeting.lookingUp': () => {
      expect(text('Videotermin wird geladen …')).toBe(true);
      expect(screen.queryByLabelText('Meeting-Code')).toBeNull();
    },
    'clientMeeting.waiting': () => {
      // Two hours ahead: not "Gleich geht es los", and the page may be closed.
      expect(text('Ihr Videotermin steht fest')).toBe(true);
      expect(text('Gleich geht es los')).toBe(false);
      expect(screen.getByText(/Sie können diese Seite jetzt schließen/)).toBeTruthy();
      expect(text('Der Videoraum öffnet am 29.03.2026 um 11:00 Uhr.')).toBe(true);
      expect(screen.getByRole('timer').textContent).toBe('Noch 2:00:00 bis zum Einlass');
      expect(screen.getByText(/mit Clara Coach/)).toBeTruthy();
    },
    'clientMeeting.joining': (_, r) => {
      expect(text('Verbindung zum Videoraum wird hergestellt …')).toBe(true);
      expect(room(r).hidden).toBe(true);
    },
    'clientMeeting.room': (_, r) => {
      expect(room(r).hidden).toBe(false);
      expect(r.rooms.at(-1)).toEqual({ token: TOKEN, containerId: 'meeting-room', lang: 'de' });
    },
    'clientMeeting.room.connecting': () => {
      expect(text('Verbindung zum Videoraum wird hergestellt …')).toBe(true);
    },
    'clientMeeting.room.inMeeting': (_, r) => {
      expect(text('Verbindung zum Videoraum wird hergestellt …')).toBe(false);
      expect(room(r).hidden).toBe(false);
    },
    'clientMeeting.finished': (_, r) => {
      expect(r.finished()).toBe(1);
    },
    'clientMeeting.invalidCode': () => {
      expect(screen.getByRole('alert').textContent).toBe(
        'Dieser Meeting-Code ist ungültig. Bitte prüfen Sie Ihre Eingabe.',
      );
      expect(codeInput().getAttribute('aria-invalid')).toBe('true');
    },
    'clientMeeting.failed': (_, r) => {
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
      expect(room(r).hidden).toBe(true);
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
  finish: (r) => r.view.unmount(),
});

// ---------------------------------------------------------------------------------------------
// Coach

function overview(
  window: MeetingInfo,
  extra: Partial<CoachMeetingOverview['appointment']> = {},
): CoachMeetingOverview {
  return {
    appointment: {
      cancelledAt: null,
      meetingType: 'jitsi',
      ...extra,
    } as CoachMeetingOverview['appointment'],
    client: {} as CoachMeetingOverview['client'],
    earlierAppointments: [],
    joinableFrom: window.joinableFrom,
    joinableUntil: window.joinableUntil,
    externalJoinUrl:
      extra.meetingType && extra.meetingType !== 'jitsi' ? 'https://xodo.example/r/1' : null,
    finishedAt: null,
  };
}
const FINISHED: MeetingFinished = { appointmentId: OPEN.appointmentId, finishedAt: iso(NOW) };

const COACH_EVENTS: AnyEventObject[] = [
  ...[
    overview(OPEN),
    overview(EARLY),
    overview(OVER),
    overview(OPEN, { cancelledAt: iso(NOW) }),
    overview(OPEN, { meetingType: 'arztkonsultation' }),
  ].map((output) => done('lookupCoachMeeting', output)),
  failed('lookupCoachMeeting', apiError(404, 'not_found')),
  failed('lookupCoachMeeting', NETWORK),
  done('fetchCoachToken', { ...TOKEN, moderator: true }),
  failed('fetchCoachToken', NETWORK),
  done('recordFinished', FINISHED),
  failed('recordFinished', apiError(409, 'meeting_not_started')),
  { type: 'meeting.join' },
  { type: 'meeting.retry' },
  { type: 'room.joined' },
  { type: 'room.left' },
  { type: 'room.failed' },
];

const MODES: CoachMeetingMode[] = ['overview', 'join', 'finished'];

describeModel('coach meeting, model-based against the machine', {
  machine: coachMeetingMachine,
  // Three pages: every state is reached over the three.
  plans: MODES.map((mode) => ({
    name: mode,
    input: { code: 'abcd-efgh-jkmn', mode, now: () => NOW },
    events: COACH_EVENTS,
    // The whole context: each answer of the lookup leads somewhere else.
    serialize: (s) => s.context,
  })),
  start: (plan) => {
    const calls = { openRoom: 0, showFinished: 0 };
    const started = startMachine(coachMeetingMachine, {
      input: plan.input!,
      actors: { videoRoom: fromCallback(() => undefined) },
      actions: { openRoom: () => calls.openRoom++, showFinished: () => calls.showFinished++ },
    });
    return { ...started, calls, mode: plan.input!.mode };
  },
  states: {
    'coachMeeting.lookingUp': (s) => expect(s.hasTag('busy')).toBe(true),
    'coachMeeting.overview': (s, r) => {
      expect(r.mode).toBe('overview');
      expect(s.can({ type: 'meeting.join' })).toBe(
        Date.parse(s.context.overview!.joinableFrom) <= NOW &&
          NOW <= Date.parse(s.context.overview!.joinableUntil),
      );
    },
    'coachMeeting.waiting': (s) =>
      expect(s.context.overview!.joinableFrom).toBe(EARLY.joinableFrom),
    'coachMeeting.joining': (_, r) =>
      expect(r.fakes.fetchCoachToken!.calls.at(-1)).toEqual({ code: 'abcd-efgh-jkmn' }),
    'coachMeeting.room': (s) => expect(s.context.token?.moderator).toBe(true),
    'coachMeeting.room.connecting': (s) => expect(s.hasTag('busy')).toBe(true),
    'coachMeeting.room.inMeeting': (s) => expect(s.hasTag('room')).toBe(true),
    'coachMeeting.left': (_, r) => expect(r.calls.showFinished).toBe(1),
    'coachMeeting.recording': (_, r) => expect(r.mode).toBe('finished'),
    'coachMeeting.finished': (s) => expect(s.context.finished).toEqual(FINISHED),
    'coachMeeting.invalidCode': (s) =>
      expect(s.context.error).toEqual({ code: 'invalid_meeting_code' }),
    'coachMeeting.cancelled': (s) =>
      expect(s.context.overview!.appointment.cancelledAt).not.toBeNull(),
    'coachMeeting.over': (s) => expect(s.context.overview!.joinableUntil).toBe(OVER.joinableUntil),
    'coachMeeting.external': (s) =>
      expect(s.context.overview!.externalJoinUrl).toBe('https://xodo.example/r/1'),
    'coachMeeting.failed': (s) => {
      expect(s.hasTag('error')).toBe(true);
      expect(['network_error', 'meeting_not_started', 'video_unavailable']).toContain(
        s.context.error?.code,
      );
    },
  },
});

// ---------------------------------------------------------------------------------------------
// Coach start page (/coach/meeting)

const START_EVENTS: AnyEventObject[] = [
  done('loadUpcoming', []),
  failed('loadUpcoming', NETWORK),
  done('lookupCoachMeeting', overview(OPEN)),
  failed('lookupCoachMeeting', apiError(404, 'not_found')),
  { type: 'code.change', value: 'abcd-efgh-jkmn' },
  { type: 'code.change', value: '' },
  { type: 'code.submit' },
  { type: 'upcoming.retry' },
  { type: 'xstate.after.upcomingRefresh.coachMeetingStart.upcoming.loaded' },
];

describeModel('coach start page, model-based against the machine', {
  machine: coachMeetingStartMachine,
  plans: [
    {
      input: { now: () => NOW },
      events: START_EVENTS,
      serialize: (s) => ({ code: s.context.code !== '', error: s.context.error?.code ?? null }),
    },
  ],
  start: () => {
    const clock = new SimulatedClock();
    clock.set(NOW);
    const opened: string[] = [];
    const started = startMachine(coachMeetingStartMachine, {
      input: { now: () => NOW },
      clock,
      actions: { openMeeting: (_: unknown, p: { code: string }) => opened.push(p.code) },
    });
    return { ...started, opened };
  },
  states: {
    'coachMeetingStart.upcoming.loading': (_, r) =>
      expect(r.fakes.loadUpcoming!.calls.at(-1)).toEqual({ forDate: '2026-03-29' }),
    'coachMeetingStart.upcoming.loaded': (s) => expect(s.context.upcoming).toEqual([]),
    'coachMeetingStart.upcoming.failed': (s) =>
      expect(s.can({ type: 'upcoming.retry' })).toBe(true),
    'coachMeetingStart.codeForm.editing': (s) =>
      expect([null, 'no_meeting_code', 'invalid_meeting_code']).toContain(
        s.context.error?.code ?? null,
      ),
    'coachMeetingStart.codeForm.checking': (_, r) =>
      expect(r.fakes.lookupCoachMeeting!.calls.at(-1)).toEqual({ code: 'abcd-efgh-jkmn' }),
    'coachMeetingStart.codeForm.opened': (_, r) => expect(r.opened).toEqual(['abcd-efgh-jkmn']),
  },
});
