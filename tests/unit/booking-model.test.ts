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
import {
  describeModel,
  done,
  failed,
  fake,
  startMachine,
  type Fake,
  type ModelPath,
} from '../support/model';
import { apiError, appointment, CLIENT_ID, COACH_ID, slot } from './scheduling-fakes';

/**
 * Model-based tests of the two staff booking flows (`/appointments/new[-adhoc]` and
 * `/pre-appointment/new`): paths from the real machines, the client search's debounce
 * included, played on live actors with fake API calls on a simulated clock; each state is
 * checked in what the booking page renders from the actor (tags, enabled actions, the chosen
 * client, coach, slot and conflict) and in the request that went out.
 */

const TODAY = Temporal.PlainDate.from('2026-03-25');
const NETWORK = Object.assign(new Error('offline'), { code: 'network_error' });
const CLIENT = {
  id: CLIENT_ID,
  firstName: 'Erika',
  lastName: 'Mustermann',
} as unknown as ClientSummary;
const SLOT = slot('2026-03-26T09:00:00.000Z', '2026-03-26T09:50:00.000Z');

/** How many booking requests a path must have sent: one per confirmation. */
const confirmations = (path: ModelPath) =>
  path.steps.filter((s) => s.event.type === 'booking.confirm').length;

// ---------------------------------------------------------------------------------------------
// Staff booking

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
  { type: 'coach.select', coachId: COACH_ID },
  { type: 'type.select', appointmentType: 'first' },
  { type: 'duration.select', duration: 60 },
  { type: 'week.next' },
  done('loadSlots', [SLOT]),
  failed('loadSlots', NETWORK),
  { type: 'slot.select', slot: SLOT },
  { type: 'booking.confirm' },
  { type: 'booking.back' },
  done('createAppointment', appointment()),
  failed('createAppointment', apiError(409, 'slot_taken')),
  failed('createAppointment', NETWORK),
  { type: 'booking.another' },
];

const bookingPlan = (name: string, input: BookingInput) => ({
  name,
  input,
  events: BOOKING_EVENTS,
  // Kept small: the coach decides which states follow, the conflict and error what shows.
  serialize: (s: any) => ({
    coach: s.context.coachId !== null,
    conflict: s.context.conflict,
    error: s.context.error?.code ?? null,
  }),
  // The changes of the slot query, which the shortest paths need not take.
  walks: [
    [
      ...(input.role === 'COACH'
        ? []
        : [done('loadCoaches', [{ id: COACH_ID, name: 'Clara Coach' }])]),
      { type: 'client.query', query: 'Er' },
      { type: 'xstate.after.searchDebounce.booking.choosingClient.debouncing' },
      done('searchClients', [CLIENT]),
      { type: 'client.select', client: CLIENT },
      ...(input.role === 'COACH' ? [] : [{ type: 'coach.select', coachId: COACH_ID }]),
      { type: 'week.next' },
      input.kind === 'adhoc'
        ? { type: 'duration.select', duration: 60 }
        : { type: 'type.select', appointmentType: 'first' },
      done('loadSlots', [SLOT]),
      { type: 'slot.select', slot: SLOT },
      { type: 'booking.confirm' },
      failed('createAppointment', apiError(409, 'slot_taken')),
      done('loadSlots', [SLOT]),
      { type: 'slot.select', slot: SLOT },
      { type: 'booking.confirm' },
      done('createAppointment', appointment()),
      { type: 'booking.another' },
      { type: 'client.select', client: CLIENT },
      { type: 'client.change' },
    ],
  ].filter(() => input.ownCoachId !== null || input.role !== 'COACH'),
});

describeModel('staff booking machine, model-based', {
  machine: bookingMachine,
  plans: [
    bookingPlan('manager, regular', {
      kind: 'regular',
      role: 'ONBOARDING_MANAGER',
      ownCoachId: null,
      today: TODAY,
    }),
    bookingPlan('coach, ad hoc', {
      kind: 'adhoc',
      role: 'COACH',
      ownCoachId: COACH_ID,
      today: TODAY,
    }),
    bookingPlan('coach without coach record', {
      kind: 'regular',
      role: 'COACH',
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
    'booking.choosingSlot': (s) => {
      expect(s.context.client).toEqual(CLIENT);
      expect(s.can({ type: 'client.change' })).toBe(true);
      // Managers pick the coach; ad hoc appointments pick a duration, regular ones a type.
      expect(s.can({ type: 'coach.select', coachId: COACH_ID })).toBe(s.context.canPickCoach);
      expect(s.can({ type: 'duration.select', duration: 60 })).toBe(s.context.kind === 'adhoc');
      expect(s.can({ type: 'type.select', appointmentType: 'first' })).toBe(
        s.context.kind === 'regular',
      );
    },
    'booking.choosingSlot.needCoach': (s) => expect(s.context.coachId).toBeNull(),
    'booking.choosingSlot.loadingSlots': (s, run) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(run.fakes.loadSlots!.latest().input).toEqual({
        coachId: COACH_ID,
        duration: s.context.duration,
        ...windowOf(s.context.weekStart, 7),
      });
      expect(s.context.duration).toBe(
        s.context.kind === 'adhoc' && s.context.duration === 60
          ? 60
          : DEFAULT_DURATION[s.context.appointmentType],
      );
    },
    'booking.choosingSlot.slotsFailed': (s) => {
      expect(s.hasTag('error')).toBe(true);
      expect(s.can({ type: 'retry' })).toBe(true);
    },
    'booking.choosingSlot.slotsReady': (s) => {
      expect(s.hasTag('busy')).toBe(false);
      expect(s.context.slots).toEqual([SLOT]);
      expect(s.context.slot).toBeNull();
      expect(s.can({ type: 'slot.select', slot: SLOT })).toBe(true);
    },
    'booking.confirming': (s) => {
      expect(s.context.slot).toEqual(SLOT);
      expect(s.context.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
      expect(s.can({ type: 'booking.confirm' })).toBe(true);
      expect(s.can({ type: 'booking.back' })).toBe(true);
      if (s.context.error) expect(s.context.error.code).toBe('network_error');
    },
    'booking.booking': (s, run) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(run.fakes.createAppointment!.latest().input).toEqual({
        idempotencyKey: s.context.idempotencyKey,
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
    },
  },
  finish: (run, path) => {
    expect(run.fakes.createAppointment!.calls).toHaveLength(confirmations(path));
    // A slot taken meanwhile: fresh slots, and the page explains why.
    if (
      path.steps.at(-1)!.event.type === 'xstate.error.actor.createAppointment' &&
      run.actor.getSnapshot().matches('choosingSlot')
    ) {
      expect(run.actor.getSnapshot().context.conflict).toBe(true);
    }
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
        done('slotPicker', { outcome: 'submitted', slot: SLOT, result: appointment({ appointmentType: 'initial' }) }),
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
      expect(picker.request!({ query: picker.query!, slot: SLOT, idempotencyKey: 'key-1' })).toMatchObject({
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
