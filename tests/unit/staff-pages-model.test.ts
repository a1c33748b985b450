// @vitest-environment node
import { expect, it } from 'vitest';
import {
  appointmentDetailMachine,
  type AppointmentAction,
  type AppointmentDetail,
} from '../../src/machines/appointment-detail.machine';
import {
  clientStaffDetailMachine,
  type ClientAction,
  type ClientDetail,
} from '../../src/machines/client-staff-detail.machine';
import {
  filterOptionsMachine,
  type FilterOptions,
} from '../../src/machines/staff-filter-options.machine';
import {
  OVERVIEW_TICK_MS,
  overviewMachine,
  type Overview,
} from '../../src/machines/overview.machine';
import { supportMachine } from '../../src/machines/support.machine';
import { SimulatedClock } from 'xstate';
import { describeModel, done, failed, type Snap, startMachine } from '../support/model';
import { appointment } from './scheduling-fakes';

/**
 * Model-based tests of the staff pages' small machines (dashboard, filter choices, support
 * form, appointment and client detail): paths from the real machines, played on live actors
 * with fake API calls; each state is checked in what its page renders from the actor — the
 * tags (busy, error), which buttons `can()` enables and the context it shows.
 */

const NETWORK = Object.assign(new Error('offline'), { code: 'network_error' });
const problem = (
  status: number,
  code: string,
  fieldErrors: Array<{ field: string; code: string }> = [],
) => Object.assign(new Error(code), { status, code, fieldErrors });

// ---------------------------------------------------------------------------------------------
// Overview ("Heute" and the admin dashboard)

const OVERVIEW: Overview = {
  cards: [
    {
      id: 'todayAppointments',
      count: 3,
      capped: false,
      href: '/appointments?from=2026-10-26&to=2026-10-26',
    },
    { id: 'openClients', count: 1000, capped: true, href: '/clients', waiting: true },
  ],
  appointments: [appointment({ id: 'a1' })],
};
const T0 = Date.parse('2026-10-26T08:00:00Z');

describeModel('overview machine, model-based', {
  machine: overviewMachine,
  plans: [
    {
      events: [
        done('loadOverview', OVERVIEW),
        failed('loadOverview', NETWORK),
        { type: 'overview.retry' },
        { type: 'overview.refresh' },
      ],
      serialize: (s) => s.context.error?.code ?? null,
      walks: [
        [done('loadOverview', OVERVIEW), { type: 'xstate.after.overviewTick.overview.loaded' }],
      ],
    },
  ],
  start: () => {
    const clock = new SimulatedClock();
    clock.set(T0);
    return startMachine(overviewMachine, { clock, input: { now: () => clock.now() } });
  },
  states: {
    'overview.loading': (s, run) => {
      expect(s.hasTag('busy')).toBe(true);
      // The loader is asked for the day of the clock's instant.
      expect(run.fakes.loadOverview!.latest().input).toEqual({ nowMs: run.clock.now() });
    },
    'overview.loaded': (s, run) => {
      expect(s.hasTag('busy')).toBe(false);
      expect(s.context.cards).toEqual(OVERVIEW.cards);
      expect(s.context.appointments).toEqual(OVERVIEW.appointments);
      // Every minute the clock is read again (join links appear on time).
      expect(s.context.nowMs).toBe(run.clock.now());
      expect(s.can({ type: 'overview.refresh' })).toBe(true);
      expect(s.can({ type: 'overview.retry' })).toBe(false);
    },
    'overview.failed': (s) => {
      expect(s.hasTag('error')).toBe(true);
      expect(s.context.error).toEqual({ code: 'network_error' });
      expect(s.can({ type: 'overview.retry' })).toBe(true);
    },
  },
});

it('re-reads the clock once a minute while loaded', () => {
  const clock = new SimulatedClock();
  clock.set(T0);
  const { actor, fakes } = startMachine(overviewMachine, {
    clock,
    input: { now: () => clock.now() },
  });
  fakes.loadOverview!.resolve(OVERVIEW);
  return Promise.resolve().then(async () => {
    await new Promise((r) => setTimeout(r, 0));
    expect(actor.getSnapshot().value).toBe('loaded');
    clock.increment(OVERVIEW_TICK_MS - 1);
    expect(actor.getSnapshot().context.nowMs).toBe(T0);
    clock.increment(1);
    expect(actor.getSnapshot().context.nowMs).toBe(T0 + OVERVIEW_TICK_MS);
  });
});

// ---------------------------------------------------------------------------------------------
// Filter choices of the staff lists

const OPTIONS: FilterOptions = {
  coaches: [{ id: 'c1', name: 'Clara Coach', active: true }],
  insurers: ['AOK'],
  campaigns: [{ code: 'herbst', name: 'Herbst' }],
};

describeModel('filter options machine, model-based', {
  machine: filterOptionsMachine,
  plans: [true, false].map((withCoaches) => ({
    name: withCoaches ? 'with coaches' : 'without coaches',
    input: { withCoaches },
    events: [done('loadFilterOptions', OPTIONS), failed('loadFilterOptions', NETWORK)],
  })),
  start: (plan) => startMachine(filterOptionsMachine, { input: plan.input! }),
  states: {
    'filterOptions.loading': (s, run) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(run.fakes.loadFilterOptions!.latest().input).toEqual({
        withCoaches: s.context.withCoaches,
      });
      // Until the choices arrive, the filters offer only "Alle".
      expect(s.context.options).toEqual({ coaches: [], insurers: [], campaigns: [] });
    },
    'filterOptions.ready': (s) => {
      expect(s.hasTag('busy')).toBe(false);
      expect(s.context.options).toEqual(OPTIONS);
    },
    'filterOptions.unavailable': (s) => {
      expect(s.hasTag('busy')).toBe(false);
      expect(s.context.options).toEqual({ coaches: [], insurers: [], campaigns: [] });
      expect(s.status).toBe('active');
    },
  },
});

// ---------------------------------------------------------------------------------------------
// Support form

describeModel('support machine, model-based', {
  machine: supportMachine,
  plans: [
    {
      events: [
        { type: 'form.change', field: 'category', value: 'technical' },
        { type: 'form.change', field: 'subject', value: 'Kalender' },
        { type: 'form.change', field: 'message', value: 'Der Kalender lädt nicht.' },
        { type: 'form.change', field: 'subject', value: '' },
        { type: 'form.submit' },
        { type: 'form.retry' },
        { type: 'form.edit' },
        { type: 'form.reset' },
        done('sendSupportMessage', { id: 'support-1' }),
        failed('sendSupportMessage', NETWORK),
        failed(
          'sendSupportMessage',
          problem(400, 'validation_failed', [{ field: 'body.subject', code: 'value_too_long' }]),
        ),
      ],
      // The draft only as far as it decides validity; the errors as shown at the fields.
      serialize: (s) => ({
        filled: [
          s.context.draft.category !== '',
          s.context.draft.subject !== '',
          s.context.draft.message !== '',
        ],
        fieldErrors: s.context.fieldErrors,
        error: s.context.error?.code ?? null,
      }),
    },
  ],
  start: () => {
    const notices: string[] = [];
    return {
      ...startMachine(supportMachine, { actions: { notifySent: () => void notices.push('sent') } }),
      notices,
    };
  },
  states: {
    'support.editing': (s) => {
      expect(s.hasTag('busy')).toBe(false);
      // Every message at a field is a code the form translates.
      for (const code of Object.values(s.context.fieldErrors))
        expect(['value_missing', 'value_too_long']).toContain(code);
    },
    'support.submitting': (s, run) => {
      expect(s.hasTag('busy')).toBe(true);
      // What goes out is the trimmed draft, never an invalid one.
      expect(run.fakes.sendSupportMessage!.latest().input).toEqual({
        category: 'technical',
        subject: 'Kalender',
        message: 'Der Kalender lädt nicht.',
      });
      expect(s.context.fieldErrors).toEqual({});
    },
    'support.failed': (s) => {
      expect(s.hasTag('error')).toBe(true);
      expect(s.context.error).toEqual({ code: 'network_error' });
      expect(s.can({ type: 'form.retry' })).toBe(true);
      expect(s.can({ type: 'form.change', field: 'subject', value: 'x' })).toBe(false);
    },
    'support.sent': (s, run) => {
      expect(s.context.sentId).toBe('support-1');
      expect(run.notices).toEqual(['sent']);
      expect(s.can({ type: 'form.reset' })).toBe(true);
    },
  },
  finish: (run, path) => {
    // A submit of an incomplete form sends nothing: one request per submit of a valid draft.
    const sends = path.steps.filter(
      (step) => step.state.matches('submitting') && step.event.type !== 'xstate.init',
    );
    expect(run.fakes.sendSupportMessage!.calls.length).toBe(sends.length);
  },
});

// ---------------------------------------------------------------------------------------------
// Appointment detail (staff)

const ID = '55555555-5555-4555-8555-555555555555';
const detail = (over: Partial<AppointmentDetail['appointment']> = {}): AppointmentDetail => ({
  appointment: { ...appointment(), ...over } as unknown as AppointmentDetail['appointment'],
  communications: [],
  events: null,
});
// The fixture appointment runs 09:00–09:50 UTC on 25 March; the clock stands at 09:20.
const NOW = Date.parse('2026-03-25T09:20:00.000Z');
const UNDERWAY = detail();
const UPCOMING = detail({
  startDate: '2026-03-26T09:00:00.000Z',
  endDate: '2026-03-26T09:50:00.000Z',
});
const ENDED = detail({
  startDate: '2026-03-24T09:00:00.000Z',
  endDate: '2026-03-24T09:50:00.000Z',
});
const NO_SHOW = detail({ ...ENDED.appointment, noShow: true });
const CANCELLED = detail({ cancelledAt: '2026-03-20T10:00:00.000Z' });
type Phase = 'upcoming' | 'underway' | 'ended' | 'cancelled';
/** Per phase: whether the page offers cancel, invitations and the no-show (its tags). */
const offersChecks = (expected: Record<Phase, [boolean, boolean, boolean]>) =>
  Object.fromEntries(
    Object.entries(expected).map(([phase, offers]) => [
      `appointmentDetail.ready.offers.${phase}`,
      (s: Snap) => {
        expect(phaseOfRecord(s.context.record!.appointment)).toBe(phase);
        expect([
          s.hasTag('offersCancel'),
          s.hasTag('offersInvites'),
          s.hasTag('offersNoShow'),
        ]).toEqual(offers);
      },
    ]),
  );
const phaseOfRecord = (a: AppointmentDetail['appointment']): Phase =>
  a.cancelledAt !== null
    ? 'cancelled'
    : Date.parse(a.endDate) <= NOW
      ? 'ended'
      : Date.parse(a.startDate) <= NOW
        ? 'underway'
        : 'upcoming';

describeModel('appointment detail machine, model-based', {
  machine: appointmentDetailMachine,
  plans: [false, true].map((askToCancel) => ({
    name: askToCancel ? '/cancel-appointment' : '/appointments',
    input: { id: ID, withEvents: true, askToCancel, now: () => NOW },
    events: [
      done('loadDetail', UPCOMING),
      done('loadDetail', UNDERWAY),
      done('loadDetail', ENDED),
      done('loadDetail', NO_SHOW),
      done('loadDetail', CANCELLED),
      failed('loadDetail', problem(404, 'not_found')),
      failed('loadDetail', NETWORK),
      { type: 'detail.retry' },
      { type: 'cancel.request' },
      { type: 'cancel.confirm' },
      { type: 'cancel.abort' },
      { type: 'noShow.toggle' },
      { type: 'invites.resend' },
      done('cancelAppointment', CANCELLED.appointment),
      failed('cancelAppointment', problem(409, 'appointment_cancelled')),
      done('setNoShow', NO_SHOW.appointment),
      failed('setNoShow', NETWORK),
      done('resendInvites', undefined),
      failed('resendInvites', NETWORK),
    ],
    serialize: (s) => ({
      phase: s.context.record ? phaseOfRecord(s.context.record.appointment) : null,
      noShow: s.context.record?.appointment.noShow ?? null,
      ask: s.context.askToCancel,
      error: s.context.error?.code ?? null,
      actionError: s.context.actionError?.code ?? null,
    }),
  })),
  start: (plan) => {
    const notices: AppointmentAction[] = [];
    const started = startMachine(appointmentDetailMachine, {
      input: plan.input!,
      actions: {
        notify: (_: unknown, params: { action: AppointmentAction }) =>
          void notices.push(params.action),
      },
    });
    return { ...started, notices };
  },
  states: {
    'appointmentDetail.loading': (s, run) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(run.fakes.loadDetail!.latest().input).toEqual({ id: ID, withEvents: true });
    },
    'appointmentDetail.failed': (s) => {
      expect(s.hasTag('error')).toBe(true);
      expect([{ code: 'not_found', status: 404 }, { code: 'network_error' }]).toContainEqual(
        s.context.error,
      );
      // A missing appointment is not loaded again: the page offers no retry.
      expect(s.can({ type: 'detail.retry' })).toBe(s.context.error!.code !== 'not_found');
    },
    'appointmentDetail.ready': (s) => {
      expect(s.context.record).not.toBeNull();
    },
    'appointmentDetail.ready.offers': (s) => {
      expect(s.context.record).not.toBeNull();
    },
    // Before the start: cancel and invitations; under way: all three; over: only the no-show
    // (mark or take back); cancelled: nothing.
    ...offersChecks({
      upcoming: [true, true, false],
      underway: [true, true, true],
      ended: [false, false, true],
      cancelled: [false, false, false],
    }),
    'appointmentDetail.ready.action': (s) => {
      expect(s.context.record).not.toBeNull();
    },
    'appointmentDetail.ready.action.idle': (s) => {
      expect(s.hasTag('busy')).toBe(false);
      const phase = phaseOfRecord(s.context.record!.appointment);
      const live = phase === 'upcoming' || phase === 'underway';
      // Cancel and invitations until the end; the no-show once started, never when cancelled.
      expect(s.can({ type: 'cancel.request' })).toBe(live);
      expect(s.can({ type: 'invites.resend' })).toBe(live);
      expect(s.can({ type: 'noShow.toggle' })).toBe(phase === 'underway' || phase === 'ended');
      if (s.context.actionError)
        expect(['appointment_cancelled', 'network_error']).toContain(s.context.actionError.code);
    },
    'appointmentDetail.ready.action.confirmingCancel': (s, run) => {
      expect(['upcoming', 'underway']).toContain(phaseOfRecord(s.context.record!.appointment));
      expect(s.can({ type: 'cancel.confirm' })).toBe(true);
      // Asking sends nothing.
      expect(run.fakes.cancelAppointment!.pending()).toBe(0);
    },
    'appointmentDetail.ready.action.cancelling': (s, run) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(run.fakes.cancelAppointment!.latest().input).toEqual({ id: ID });
    },
    'appointmentDetail.ready.action.settingNoShow': (s, run) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(run.fakes.setNoShow!.latest().input).toEqual({
        id: ID,
        noShow: !s.context.record!.appointment.noShow,
      });
    },
    'appointmentDetail.ready.action.resending': (s, run) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(run.fakes.resendInvites!.latest().input).toEqual({ id: ID });
    },
  },
  finish: (run, path) => {
    // Each action that succeeded was announced once, in order.
    const expected = path.steps.flatMap((step) => {
      const m = /^xstate\.done\.actor\.(cancelAppointment|setNoShow|resendInvites)$/.exec(
        step.event.type,
      );
      return m
        ? [
            (
              {
                cancelAppointment: 'cancelled',
                setNoShow: 'noShowChanged',
                resendInvites: 'invitesSent',
              } as const
            )[m[1] as 'setNoShow'],
          ]
        : [];
    });
    expect(run.notices).toEqual(expected);
  },
});

// ---------------------------------------------------------------------------------------------
// Client detail (staff)

const client = (over: Record<string, unknown> = {}): ClientDetail => ({
  client: {
    id: 'c1',
    firstName: 'Erika',
    lastName: 'Mustermann',
    email: 'erika@example.org',
    sessionsClosedOn: null,
    hasNotSignedRequiredContract: true,
    ...over,
  } as unknown as ClientDetail['client'],
  appointments: { rows: [], itemCount: 0 },
  communications: [],
});
const OPEN = client();
const CLOSED = client({ sessionsClosedOn: '2026-03-20', hasNotSignedRequiredContract: false });
const NO_EMAIL = client({ email: null });

describeModel('client detail machine (staff), model-based', {
  machine: clientStaffDetailMachine,
  plans: [
    {
      input: { id: 'c1' },
      events: [
        done('loadDetail', OPEN),
        done('loadDetail', CLOSED),
        done('loadDetail', NO_EMAIL),
        failed('loadDetail', NETWORK),
        failed('loadDetail', problem(404, 'not_found')),
        { type: 'detail.retry' },
        { type: 'sessions.close' },
        { type: 'sessions.open' },
        { type: 'close.confirm' },
        { type: 'close.abort' },
        { type: 'reminder.send' },
        done('closeSessions', CLOSED.client),
        failed('closeSessions', NETWORK),
        done('openSessions', OPEN.client),
        failed('openSessions', NETWORK),
        done('sendContractReminder', { sentAt: '2026-03-25T10:00:00Z' }),
        failed('sendContractReminder', problem(501, 'not_implemented')),
        failed('sendContractReminder', NETWORK),
        { type: 'signInLink.send' },
        done('sendSignInLink', { sentAt: '2026-03-25T10:00:00Z' }),
        failed('sendSignInLink', problem(429, 'rate_limited')),
      ],
      serialize: (s) => ({
        closed: s.context.record ? s.context.record.client.sessionsClosedOn !== null : null,
        email: s.context.record ? s.context.record.client.email !== null : null,
        unavailable: s.context.reminderUnavailable,
        error: s.context.error?.code ?? null,
        actionError: s.context.actionError?.code ?? null,
      }),
    },
  ],
  start: (plan) => {
    const notices: ClientAction[] = [];
    const started = startMachine(clientStaffDetailMachine, {
      input: plan.input!,
      actions: {
        notify: (_: unknown, params: { action: ClientAction }) => void notices.push(params.action),
      },
    });
    return { ...started, notices };
  },
  states: {
    'clientDetail.loading': (s, run) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(run.fakes.loadDetail!.latest().input).toEqual({ id: 'c1' });
    },
    'clientDetail.failed': (s) => {
      expect(s.hasTag('error')).toBe(true);
      expect([{ code: 'not_found', status: 404 }, { code: 'network_error' }]).toContainEqual(
        s.context.error,
      );
      // A client that is not there (or not this coach's) is not loaded again.
      expect(s.can({ type: 'detail.retry' })).toBe(s.context.error!.code !== 'not_found');
    },
    'clientDetail.ready.idle': (s) => {
      expect(s.hasTag('busy')).toBe(false);
      const closed = s.context.record!.client.sessionsClosedOn !== null;
      expect(s.can({ type: 'sessions.close' })).toBe(!closed);
      expect(s.can({ type: 'sessions.open' })).toBe(closed);
      // The sign-in link needs an e-mail address.
      expect(s.can({ type: 'signInLink.send' })).toBe(s.context.record!.client.email !== null);
      // After a 501 the reminder button goes away for good.
      expect(s.can({ type: 'reminder.send' })).toBe(
        !s.context.reminderUnavailable &&
          s.context.record!.client.hasNotSignedRequiredContract === true,
      );
    },
    'clientDetail.ready.confirmingClose': (s, run) => {
      expect(s.can({ type: 'close.confirm' })).toBe(true);
      expect(run.fakes.setSessionsClosed!.pending()).toBe(0);
    },
    'clientDetail.ready.closing': (s, run) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(run.fakes.setSessionsClosed!.latest().input).toEqual({ id: 'c1', closed: true });
    },
    'clientDetail.ready.opening': (s, run) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(run.fakes.setSessionsClosed!.latest().input).toEqual({ id: 'c1', closed: false });
    },
    'clientDetail.ready.sendingSignInLink': (s, run) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(run.fakes.sendSignInLink!.latest().input).toEqual({ id: 'c1' });
    },
    'clientDetail.ready.reminding': (s, run) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(run.fakes.sendContractReminder!.latest().input).toEqual({ id: 'c1' });
    },
  },
  finish: (run, path) => {
    const names = {
      closeSessions: 'sessionsClosed',
      openSessions: 'sessionsOpened',
      sendContractReminder: 'reminderSent',
      sendSignInLink: 'signInLinkSent',
    };
    const expected = path.steps.flatMap((step) => {
      const m =
        /^xstate\.done\.actor\.(closeSessions|openSessions|sendContractReminder|sendSignInLink)$/.exec(
          step.event.type,
        );
      return m ? [names[m[1] as keyof typeof names]] : [];
    });
    expect(run.notices).toEqual(expected);
  },
});
