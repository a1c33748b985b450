// @vitest-environment node
import { Temporal } from '@js-temporal/polyfill';
import { expect } from 'vitest';
import type { AnyEventObject } from 'xstate';
import {
  bookingMachine,
  DEFAULT_DURATION,
  type BookingInput,
} from '../../src/machines/appointment-booking.machine';
import {
  INITIAL_DURATION,
  INITIAL_MEETINGS_CALENDAR,
  preAppointmentMachine,
} from '../../src/machines/pre-appointment.machine';
import type { ClientSummary } from '../../src/machines/scheduling/shared';
import type { SlotPickerInput } from '../../src/machines/slot-picker.machine';
import { windowOf } from '../../shared/time';
import { describeModel, done, failed, fake, startMachine, type Fake } from '../support/model';
import { appointment, CLIENT_ID, COACH_ID, slot } from './scheduling-fakes';

/**
 * Model-based tests of the two staff booking flows (`/appointments/new[-adhoc]` and
 * `/pre-appointment/new`): paths from the real machines, the client search's debounce
 * included, played on live actors with fake API calls on a simulated clock; each state is
 * checked in what the booking page renders from the actor (tags, enabled actions, the chosen
 * client, coach, type and length) and in the request that went out. Both pages' slot step is
 * the slot picker, faked here: each is checked in the input it gets (the week, the query, the
 * booking request built for a chosen slot).
 */

const TODAY = Temporal.PlainDate.from('2026-03-25');
const NETWORK = Object.assign(new Error('offline'), { code: 'network_error' });
const CLIENT = {
  id: CLIENT_ID,
  firstName: 'Erika',
  lastName: 'Mustermann',
} as unknown as ClientSummary;
const SLOT = slot('2026-03-26T09:00:00.000Z', '2026-03-26T09:50:00.000Z');

/** The picker's answer for a booked slot. */
const BOOKED = done('slotPicker', { outcome: 'submitted', slot: SLOT, result: appointment() });

// ---------------------------------------------------------------------------------------------
// Staff booking (the slot picker itself is model-tested in slot-picker-model.test.ts)

const BOOKING_EVENTS: AnyEventObject[] = [
  done('loadCoaches', [{ id: COACH_ID, name: 'Clara Coach' }]),
  failed('loadCoaches', NETWORK),
  { type: 'retry' },
  { type: 'client.query', query: 'Er' },
  { type: 'client.query', query: 'E' },
  { type: 'xstate.after.searchDebounce.booking.choosingClient.debouncing' },
  done('searchClients', [CLIENT]),
  failed('searchClients', NETWORK),
  { type: 'client.select', client: CLIENT },
  { type: 'client.change' },
  BOOKED,
  { type: 'booking.another' },
];

const bookingPlan = (name: string, input: BookingInput) => ({
  name,
  input,
  events: BOOKING_EVENTS,
  serialize: (s: any) => ({
    coach: s.context.coachId !== null,
    error: s.context.error?.code ?? null,
  }),
  // The changes of the slot query, which the shortest paths need not take.
  walks: [
    [
      ...(!input.canPickCoach
        ? []
        : [done('loadCoaches', [{ id: COACH_ID, name: 'Clara Coach' }])]),
      { type: 'client.query', query: 'Er' },
      { type: 'xstate.after.searchDebounce.booking.choosingClient.debouncing' },
      done('searchClients', [CLIENT]),
      { type: 'client.select', client: CLIENT },
      ...(!input.canPickCoach ? [] : [{ type: 'coach.select', coachId: COACH_ID }]),
      input.kind === 'adhoc'
        ? { type: 'duration.select', duration: 60 }
        : { type: 'type.select', appointmentType: 'first' },
      BOOKED,
      { type: 'booking.another' },
      { type: 'client.select', client: CLIENT },
      { type: 'client.change' },
    ],
  ].filter(() => input.ownCoachId !== null || input.canPickCoach),
});

describeModel('staff booking machine, model-based', {
  machine: bookingMachine,
  plans: [
    bookingPlan('manager, regular', {
      kind: 'regular',
      canPickCoach: true,
      ownCoachId: null,
      today: TODAY,
    }),
    bookingPlan('coach, ad hoc', {
      kind: 'adhoc',
      canPickCoach: false,
      ownCoachId: COACH_ID,
      today: TODAY,
    }),
    bookingPlan('coach without coach record', {
      kind: 'regular',
      canPickCoach: false,
      ownCoachId: null,
      today: TODAY,
    }),
  ],
  maxPaths: 250,
  start: (plan) => {
    let booked = 0;
    const started = startMachine(bookingMachine, {
      input: plan.input!,
      actions: { notifyBooked: () => void booked++ },
    });
    return { ...started, booked: () => booked };
  },
  states: {
    'booking.loadingCoaches': (s, run) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(s.context.canPickCoach).toBe(true);
      expect(run.fakes.loadCoaches!.pending()).toBe(1);
    },
    'booking.coachesFailed': (s) => {
      expect(s.hasTag('error')).toBe(true);
      expect(s.context.error?.code).toBe('network_error');
      expect(s.can({ type: 'retry' })).toBe(true);
    },
    // A coach account without a coach record: nothing to do on the page.
    'booking.noCoach': (s) => {
      expect(s.context.coachId).toBeNull();
      expect(s.can({ type: 'client.query', query: 'Er' })).toBe(false);
    },
    'booking.choosingClient': (s) => {
      // After "change client" the previous one stays named until another is chosen.
      if (s.context.client) expect(s.context.client).toEqual(CLIENT);
      expect(s.can({ type: 'client.select', client: CLIENT })).toBe(true);
      expect(s.hasTag('slotStep')).toBe(false);
    },
    'booking.choosingClient.idle': (s) => expect(s.hasTag('busy')).toBe(false),
    'booking.choosingClient.debouncing': (s, run) => {
      // Typing pause: the search has not gone out yet.
      expect(s.hasTag('busy')).toBe(false);
      expect(run.fakes.searchClients!.pending()).toBe(0);
    },
    'booking.choosingClient.searching': (s, run) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(run.fakes.searchClients!.latest().input).toEqual({ query: 'Er' });
    },
    'booking.choosingClient.results': (s) => expect(s.context.results).toEqual([CLIENT]),
    'booking.choosingClient.searchFailed': (s) => {
      expect(s.hasTag('error')).toBe(true);
      expect(s.can({ type: 'retry' })).toBe(true);
    },
    'booking.choosingSlot': (s, run) => {
      expect(s.hasTag('slotStep')).toBe(true);
      expect(s.context.client).toEqual(CLIENT);
      expect(s.can({ type: 'client.change' })).toBe(true);
      // Managers pick the coach; ad hoc appointments pick a duration, regular ones a type.
      expect(s.can({ type: 'coach.select', coachId: COACH_ID })).toBe(s.context.canPickCoach);
      expect(s.can({ type: 'duration.select', duration: 60 })).toBe(s.context.kind === 'adhoc');
      expect(s.can({ type: 'type.select', appointmentType: 'first' })).toBe(
        s.context.kind === 'regular',
      );
      expect(s.context.duration).toBe(
        s.context.kind === 'adhoc' && s.context.duration === 60
          ? 60
          : DEFAULT_DURATION[s.context.appointmentType],
      );
      // The picker shows this week of the coach's free slots (none until a manager picks the
      // coach) and books the confirmed slot for the chosen client with the chosen type.
      const picker = run.fakes.slotPicker!.latest().input as SlotPickerInput;
      expect(picker.weekStart).toBe('2026-03-23');
      expect(picker.firstWeek ?? null).toBeNull();
      expect(picker.window(picker.weekStart!)).toEqual(
        windowOf(Temporal.PlainDate.from('2026-03-23'), 7),
      );
      // A coach sees their own slots at once; a manager's picker waits for the coach they pick.
      if (s.context.canPickCoach) expect([null, COACH_ID]).toContain(picker.query?.coachId ?? null);
      else expect(picker.query).toMatchObject({ coachId: COACH_ID });
      const query = {
        coachId: COACH_ID,
        appointmentType: s.context.appointmentType,
        duration: s.context.duration,
      };
      expect(picker.request!({ query, slot: SLOT, idempotencyKey: 'key-1' })).toEqual({
        idempotencyKey: 'key-1',
        body: {
          clientId: CLIENT_ID,
          coachId: COACH_ID,
          startDate: SLOT.startDate,
          endDate: SLOT.endDate,
          appointmentType: s.context.appointmentType,
          meetingType: 'jitsi',
          isProvisional: false,
        },
      });
    },
    'booking.booked': (s, run) => {
      expect(s.context.appointment?.id).toBe(appointment().id);
      expect(run.booked()).toBe(1);
      expect(s.can({ type: 'booking.another' })).toBe(true);
      expect(s.can({ type: 'coach.select', coachId: COACH_ID })).toBe(false);
    },
  },
});

// ---------------------------------------------------------------------------------------------
// New client with their initial appointment

const SAVED_CLIENT = { id: CLIENT_ID, firstName: 'Erika', lastName: 'Mustermann' };

describeModel('pre-appointment machine, model-based', {
  machine: preAppointmentMachine,
  plans: [
    {
      input: { today: TODAY },
      events: [
        done('clientForm', { record: SAVED_CLIENT }),
        done('slotPicker', {
          outcome: 'submitted',
          slot: SLOT,
          result: appointment({ appointmentType: 'initial' }),
        }),
      ],
    },
  ],
  start: () => {
    let booked = 0;
    // The client step is the record form; here its result comes from a fake.
    const clientForm = fake();
    const started = startMachine(preAppointmentMachine, {
      input: { today: TODAY },
      actors: { clientForm: clientForm.logic },
      actions: { notifyBooked: () => void booked++ },
    });
    return {
      ...started,
      fakes: { ...started.fakes, clientForm } as Record<string, Fake>,
      booked: () => booked,
    };
  },
  states: {
    'preAppointment.enteringClient': (s, run) => {
      expect(s.context.client).toBeNull();
      expect(s.hasTag('clientStep')).toBe(true);
      expect(run.fakes.clientForm!.pending()).toBe(1);
    },
    'preAppointment.choosingSlot': (s, run) => {
      expect(s.context.client).toEqual(SAVED_CLIENT);
      expect(s.hasTag('slotStep')).toBe(true);
      // The picker shows this week of the initial-meetings calendar, and no week before it
      // (the week of the page's `today`, not of the computer's clock).
      const picker = run.fakes.slotPicker!.latest().input as SlotPickerInput;
      expect(picker.weekStart).toBe('2026-03-23');
      expect(picker.firstWeek).toBe('2026-03-23');
      expect({ ...picker.query, ...picker.window(picker.weekStart!) }).toEqual({
        coachId: INITIAL_MEETINGS_CALENDAR,
        duration: INITIAL_DURATION,
        ...windowOf(Temporal.PlainDate.from('2026-03-23'), 7),
      });
      // The confirmed slot is booked for the saved client as an initial appointment.
      expect(
        picker.request!({ query: picker.query!, slot: SLOT, idempotencyKey: 'key-1' }),
      ).toMatchObject({
        idempotencyKey: 'key-1',
        body: { clientId: CLIENT_ID, appointmentType: 'initial', startDate: SLOT.startDate },
      });
    },
    'preAppointment.booked': (s, run) => {
      expect(s.status).toBe('done');
      expect(s.context.appointment?.appointmentType).toBe('initial');
      expect(run.booked()).toBe(1);
    },
  },
});
