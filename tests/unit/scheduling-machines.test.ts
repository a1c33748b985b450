import { Temporal } from '@js-temporal/polyfill';
import { describe, expect, it, vi } from 'vitest';
import { createActor, SimulatedClock, type ActorRefFrom } from 'xstate';
import {
  availabilityWeekMachine,
  type DeleteAvailabilityInput,
  type LoadWeekInput,
  type SaveAvailabilityInput,
} from '../../src/machines/availability-week.machine';
import type { SlotQuery } from '../../src/machines/actors/scheduling';
import {
  bookingMachine,
  type BookingRequest,
} from '../../src/machines/appointment-booking.machine';
import { slotPickerMachine } from '../../src/machines/slot-picker.machine';
import { calendarMachine, type CalendarQuery } from '../../src/machines/calendar.machine';
import { visibleDays } from '../../src/machines/scheduling/calendar-period';
import type {
  Appointment,
  Availability,
  CalendarEvent,
  CalendarWeek,
  ClientSummary,
  CoachOption,
  FreeSlot,
} from '../../src/machines/scheduling/shared';
import { formatRule, parseRule } from '../../shared/recurrence';
import { wallTimeToInstant, windowOf, zoneDiffers } from '../../shared/time';
import { fake, flush } from '../support/model';
import {
  apiError,
  appointment,
  appointmentEvent,
  availability,
  CLIENT_ID,
  COACH_ID,
  OTHER_COACH_ID,
  SERIES_ID,
  slot,
} from './scheduling-fakes';

const WED_25_MARCH = Temporal.PlainDate.from('2026-03-25');
const COACHES: CoachOption[] = [
  { id: COACH_ID, name: 'Clara Coach' },
  { id: OTHER_COACH_ID, name: 'Otto Coach' },
];

function startWeek(role: 'COACH' | 'ADMIN' = 'COACH', ownCoachId: string | null = COACH_ID) {
  const fakes = {
    loadCoaches: fake<any, CoachOption[]>(),
    loadWeek: fake<LoadWeekInput, Availability[]>(),
    saveAvailability: fake<SaveAvailabilityInput, Availability>(),
    deleteAvailability: fake<DeleteAvailabilityInput, void>(),
  };
  const notifySaved = vi.fn();
  const notifyDeleted = vi.fn();
  const actor = createActor(
    availabilityWeekMachine.provide({
      actors: {
        loadCoaches: fakes.loadCoaches.logic,
        loadWeek: fakes.loadWeek.logic,
        saveAvailability: fakes.saveAvailability.logic,
        deleteAvailability: fakes.deleteAvailability.logic,
      },
      actions: { notifySaved, notifyDeleted },
    }),
    { input: { canPickCoach: role !== 'COACH', ownCoachId, today: WED_25_MARCH } },
  ).start();
  return { actor, fakes, notifySaved, notifyDeleted };
}

describe('scheduling time', () => {
  it('takes Berlin midnights as day boundaries, also across the March DST change', () => {
    // Monday 23 March 00:00 CET is 22 March 23:00 UTC; Monday 30 March 00:00 CEST is 29 March 22:00 UTC.
    expect(windowOf(Temporal.PlainDate.from('2026-03-23'), 7)).toEqual({
      startDate: '2026-03-22T23:00:00Z',
      endDate: '2026-03-29T22:00:00Z',
    });
    // Last Sunday of October: 09:00 is CET again (UTC+1), the Saturday before still CEST.
    expect(wallTimeToInstant('2026-10-24', '09:00')).toBe('2026-10-24T07:00:00Z');
    expect(wallTimeToInstant('2026-10-25', '09:00')).toBe('2026-10-25T08:00:00Z');
    // 02:30 does not exist on 29 March: it moves forward to 03:30 CEST.
    expect(wallTimeToInstant('2026-03-29', '02:30')).toBe('2026-03-29T01:30:00Z');
  });

  it('notes other zones only when their wall times differ from Berlin', () => {
    const now = Temporal.Instant.from('2026-06-01T12:00:00Z');
    expect(zoneDiffers('Europe/Berlin', now)).toBe(false);
    expect(zoneDiffers('Europe/Paris', now)).toBe(false);
    expect(zoneDiffers('Europe/London', now)).toBe(true);
    expect(zoneDiffers('America/New_York', now)).toBe(true);
  });

  it('writes and reads the weekly rules the contract accepts', () => {
    const rule = {
      interval: 2,
      days: ['WE', 'MO'] as const,
      end: { kind: 'until', date: '2026-12-31' } as const,
    };
    const text = formatRule({ ...rule, days: [...rule.days] });
    expect(text).toBe('FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE;UNTIL=20261231;WKST=MO');
    expect(parseRule(text, 1)).toEqual({
      interval: 2,
      days: ['MO', 'WE'],
      end: { kind: 'until', date: '2026-12-31' },
    });
    expect(parseRule('FREQ=WEEKLY;COUNT=5', 3)).toEqual({
      interval: 1,
      days: ['WE'],
      end: { kind: 'count', count: 5 },
    });
  });
});

describe('availability week machine', () => {
  it("loads a coach's own week, Monday to Monday in Berlin time", async () => {
    const { actor, fakes } = startWeek();
    expect(actor.getSnapshot().value).toBe('loading');
    expect(fakes.loadWeek.calls).toEqual([
      { coachId: COACH_ID, startDate: '2026-03-22T23:00:00Z', endDate: '2026-03-29T22:00:00Z' },
    ]);
    fakes.loadWeek.resolve([availability()]);
    await flush();
    expect(actor.getSnapshot().matches({ ready: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context.availabilities).toHaveLength(1);

    actor.send({ type: 'week.next' });
    expect(fakes.loadWeek.calls[1]).toEqual({
      coachId: COACH_ID,
      startDate: '2026-03-29T22:00:00Z',
      endDate: '2026-04-05T22:00:00Z',
    });
    expect(fakes.loadCoaches.calls).toHaveLength(0);
  });

  it('says so when a coach account has no coach record, and loads nothing', () => {
    const { actor, fakes } = startWeek('COACH', null);
    expect(actor.getSnapshot().value).toBe('noCoach');
    expect(fakes.loadWeek.calls).toHaveLength(0);
  });

  it('lets an admin pick the coach: first coach first, then the chosen one', async () => {
    const { actor, fakes } = startWeek('ADMIN', null);
    expect(actor.getSnapshot().value).toBe('loadingCoaches');
    fakes.loadCoaches.resolve(COACHES);
    await flush();
    expect(fakes.loadWeek.calls[0]!.coachId).toBe(COACH_ID);
    fakes.loadWeek.resolve([]);
    await flush();
    actor.send({ type: 'coach.select', coachId: OTHER_COACH_ID });
    expect(fakes.loadWeek.calls[1]!.coachId).toBe(OTHER_COACH_ID);
  });

  it('creates a weekly block on the chosen day and reloads the week', async () => {
    const { actor, fakes, notifySaved } = startWeek();
    fakes.loadWeek.resolve([]);
    await flush();
    actor.send({ type: 'block.create', date: '2026-03-26' });
    expect(actor.getSnapshot().context.draft).toMatchObject({
      startDay: '2026-03-26',
      days: ['TH'],
      repeat: true,
    });
    actor.send({ type: 'form.change', field: 'startTime', value: '14:00' });
    actor.send({ type: 'form.change', field: 'endTime', value: '17:30' });
    actor.send({ type: 'form.toggleDay', day: 'MO' });
    actor.send({ type: 'form.change', field: 'endKind', value: 'until' });
    actor.send({ type: 'form.change', field: 'until', value: '2026-06-30' });
    actor.send({ type: 'form.submit' });
    expect(actor.getSnapshot().matches({ ready: 'saving' })).toBe(true);
    expect(fakes.saveAvailability.calls).toEqual([
      {
        op: 'create',
        body: {
          coachId: COACH_ID,
          kind: 'available',
          startDay: '2026-03-26',
          startTime: '14:00',
          endTime: '17:30',
          recurrence: 'FREQ=WEEKLY;BYDAY=MO,TH;UNTIL=20260630;WKST=MO',
          note: null,
        },
        idempotencyKey: expect.any(String),
      },
    ]);
    fakes.saveAvailability.resolve(availability());
    await flush();
    expect(notifySaved).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().value).toBe('loading');
    expect(fakes.loadWeek.calls).toHaveLength(2);
  });

  it('saves a new block again after a failure under the same Idempotency-Key, a changed one under a new key', async () => {
    const { actor, fakes } = startWeek();
    fakes.loadWeek.resolve([]);
    await flush();
    actor.send({ type: 'block.create', date: '2026-03-26' });
    actor.send({ type: 'form.submit' });
    const keyOf = (n: number) =>
      (fakes.saveAvailability.calls[n] as { idempotencyKey: string }).idempotencyKey;
    // Saved, but the answer was lost: "Speichern" again must not create a second block.
    fakes.saveAvailability.reject(apiError(503, 'database_unavailable'));
    await flush();
    actor.send({ type: 'form.submit' });
    expect(keyOf(1)).toBe(keyOf(0));
    fakes.saveAvailability.reject(apiError(503, 'database_unavailable'));
    await flush();
    actor.send({ type: 'form.change', field: 'endTime', value: '17:30' });
    actor.send({ type: 'form.submit' });
    expect(keyOf(2)).not.toBe(keyOf(0));
  });

  it('refuses an end before the start without calling the server', async () => {
    const { actor, fakes } = startWeek();
    fakes.loadWeek.resolve([]);
    await flush();
    actor.send({ type: 'block.create', date: '2026-03-26' });
    actor.send({ type: 'form.change', field: 'endTime', value: '08:00' });
    actor.send({ type: 'form.toggleDay', day: 'TH' });
    actor.send({ type: 'form.submit' });
    expect(actor.getSnapshot().matches({ ready: 'editing' })).toBe(true);
    expect(actor.getSnapshot().context.fieldErrors).toEqual({
      endTime: 'end_before_start',
      days: 'value_missing',
    });
    expect(fakes.saveAvailability.calls).toHaveLength(0);
  });

  it("puts the server's field errors back on the form", async () => {
    const { actor, fakes } = startWeek();
    fakes.loadWeek.resolve([]);
    await flush();
    actor.send({ type: 'block.create', date: '2026-03-26' });
    actor.send({ type: 'form.submit' });
    fakes.saveAvailability.reject(
      apiError(400, 'validation_failed', [{ field: 'recurrence', code: 'pattern' }]),
    );
    await flush();
    expect(actor.getSnapshot().matches({ ready: 'editing' })).toBe(true);
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ days: 'pattern' });
  });

  it('moves one occurrence in Berlin wall time, right on the DST Sunday', async () => {
    const { actor, fakes } = startWeek();
    const sunday = availability({
      recurrence: 'FREQ=WEEKLY;BYDAY=SU;WKST=MO',
      startDay: '2026-03-01',
      occurrences: [
        {
          occurrenceDate: '2026-03-29',
          startDate: '2026-03-29T07:00:00.000Z',
          endDate: '2026-03-29T10:00:00.000Z',
          modified: false,
        },
      ],
    });
    fakes.loadWeek.resolve([sunday]);
    await flush();
    actor.send({
      type: 'occurrence.select',
      availabilityId: SERIES_ID,
      occurrenceDate: '2026-03-29',
    });
    actor.send({ type: 'edit.occurrence' });
    // 07:00Z on 29 March is 09:00 CEST.
    expect(actor.getSnapshot().context.draft).toMatchObject({
      mode: 'occurrence',
      startTime: '09:00',
      endTime: '12:00',
    });
    actor.send({ type: 'form.change', field: 'startTime', value: '10:00' });
    actor.send({ type: 'form.submit' });
    expect(fakes.saveAvailability.calls).toEqual([
      {
        op: 'occurrence',
        id: SERIES_ID,
        body: {
          occurrenceDate: '2026-03-29',
          startDate: '2026-03-29T08:00:00Z',
          endDate: '2026-03-29T10:00:00Z',
        },
      },
    ]);
  });

  it('deletes one occurrence only after confirmation; a failure keeps the question open', async () => {
    const { actor, fakes, notifyDeleted } = startWeek();
    fakes.loadWeek.resolve([availability()]);
    await flush();
    actor.send({
      type: 'occurrence.select',
      availabilityId: SERIES_ID,
      occurrenceDate: '2026-03-25',
    });
    actor.send({ type: 'delete.occurrence' });
    expect(actor.getSnapshot().matches({ ready: 'confirmingDelete' })).toBe(true);
    expect(fakes.deleteAvailability.calls).toHaveLength(0);
    actor.send({ type: 'delete.confirm' });
    expect(fakes.deleteAvailability.calls).toEqual([
      { op: 'occurrence', id: SERIES_ID, occurrenceDate: '2026-03-25' },
    ]);
    fakes.deleteAvailability.reject(apiError(404, 'not_found'));
    await flush();
    expect(actor.getSnapshot().matches({ ready: 'confirmingDelete' })).toBe(true);
    expect(actor.getSnapshot().context.error).toEqual({ code: 'not_found' });
    actor.send({ type: 'delete.confirm' });
    fakes.deleteAvailability.resolve();
    await flush();
    expect(notifyDeleted).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().value).toBe('loading');
  });

  it('offers no per-occurrence edit for a one-off block', async () => {
    const { actor, fakes } = startWeek();
    fakes.loadWeek.resolve([
      availability({ recurrence: null, occurrences: [availability().occurrences[0]!] }),
    ]);
    await flush();
    actor.send({
      type: 'occurrence.select',
      availabilityId: SERIES_ID,
      occurrenceDate: '2026-03-23',
    });
    expect(actor.getSnapshot().can({ type: 'edit.occurrence' })).toBe(false);
    expect(actor.getSnapshot().can({ type: 'delete.occurrence' })).toBe(false);
    actor.send({ type: 'edit.series' });
    expect(actor.getSnapshot().context.draft).toMatchObject({ mode: 'series', repeat: false });
  });
});

const week = (
  events: CalendarEvent[],
  extra: Partial<Omit<CalendarWeek, 'events'>> = {},
): CalendarWeek => ({ events, privateBusy: [], privateCalendars: [], ...extra });

function startCalendar(role: 'COACH' | 'ADMIN' = 'COACH', narrow = false) {
  const fakes = {
    loadCoaches: fake<any, CoachOption[]>(),
    loadEvents: fake<CalendarQuery, CalendarWeek>(),
    loadAppointment: fake<{ id: string }, Appointment>(),
    cancelAppointment: fake<{ id: string }, Appointment>(),
  };
  const notifyCancelled = vi.fn();
  const actor = createActor(
    calendarMachine.provide({
      actors: {
        loadCoaches: fakes.loadCoaches.logic,
        loadEvents: fakes.loadEvents.logic,
        loadAppointment: fakes.loadAppointment.logic,
        cancelAppointment: fakes.cancelAppointment.logic,
      },
      actions: { notifyCancelled },
    }),
    { input: { canPickCoach: role !== 'COACH', today: WED_25_MARCH, narrow } },
  ).start();
  return { actor, fakes, notifyCancelled };
}

describe('calendar machine', () => {
  it("loads the coach's week and shows Monday to Sunday", async () => {
    const { actor, fakes } = startCalendar();
    expect(fakes.loadEvents.calls).toEqual([
      { startDate: '2026-03-22T23:00:00Z', endDate: '2026-03-29T22:00:00Z', coachId: null },
    ]);
    fakes.loadEvents.resolve(week([appointmentEvent()]));
    await flush();
    expect(visibleDays(actor.getSnapshot().context).map(String)).toEqual([
      '2026-03-23',
      '2026-03-24',
      '2026-03-25',
      '2026-03-26',
      '2026-03-27',
      '2026-03-28',
      '2026-03-29',
    ]);
  });

  it('shows one day on narrow screens and steps by day', async () => {
    const { actor, fakes } = startCalendar('COACH', true);
    fakes.loadEvents.resolve(week([]));
    await flush();
    expect(visibleDays(actor.getSnapshot().context).map(String)).toEqual(['2026-03-25']);
    actor.send({ type: 'period.next' });
    expect(actor.getSnapshot().context.anchor.toString()).toBe('2026-03-26');
    fakes.loadEvents.resolve(week([]));
    await flush();
    actor.send({ type: 'viewport.change', narrow: false });
    expect(actor.getSnapshot().context.mode).toBe('week');
    actor.send({ type: 'period.next' });
    expect(actor.getSnapshot().context.anchor.toString()).toBe('2026-04-02');
  });

  it('filters by coach for admins', async () => {
    const { actor, fakes } = startCalendar('ADMIN');
    fakes.loadCoaches.resolve(COACHES);
    await flush();
    fakes.loadEvents.resolve(week([]));
    await flush();
    actor.send({ type: 'coach.select', coachId: OTHER_COACH_ID });
    expect(fakes.loadEvents.calls.at(-1)!.coachId).toBe(OTHER_COACH_ID);
  });

  it('opens an appointment and cancels it after confirmation', async () => {
    const { actor, fakes, notifyCancelled } = startCalendar();
    fakes.loadEvents.resolve(week([appointmentEvent()]));
    await flush();
    actor.send({ type: 'appointment.open', appointmentId: appointmentEvent().appointmentId! });
    expect(fakes.loadAppointment.calls).toEqual([{ id: appointmentEvent().appointmentId }]);
    fakes.loadAppointment.resolve(appointment());
    await flush();
    expect(actor.getSnapshot().matches({ ready: { detail: 'showing' } })).toBe(true);
    actor.send({ type: 'cancel.request' });
    expect(fakes.cancelAppointment.calls).toHaveLength(0);
    actor.send({ type: 'cancel.confirm' });
    expect(fakes.cancelAppointment.calls).toHaveLength(1);
    fakes.cancelAppointment.resolve(appointment({ cancelledAt: '2026-03-20T10:00:00.000Z' }));
    await flush();
    expect(notifyCancelled).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().value).toBe('loading');
  });

  it('keeps the private busy times and calendar states of the answer, and replaces them on the next load', async () => {
    const { actor, fakes } = startCalendar();
    const privateBusy = [
      {
        coachId: appointmentEvent().coachId!,
        startDate: '2026-03-24T09:00:00.000Z',
        endDate: '2026-03-24T10:00:00.000Z',
        allDay: false,
      },
    ];
    const privateCalendars = [
      { coachId: appointmentEvent().coachId!, failing: true, lastSyncedAt: '2026-03-24T04:00:00Z' },
    ];
    fakes.loadEvents.resolve(week([appointmentEvent()], { privateBusy, privateCalendars }));
    await flush();
    expect(actor.getSnapshot().context).toMatchObject({ privateBusy, privateCalendars });
    actor.send({ type: 'period.next' });
    fakes.loadEvents.resolve(week([]));
    await flush();
    expect(actor.getSnapshot().context).toMatchObject({ privateBusy: [], privateCalendars: [] });
  });

  it('does not offer to cancel an appointment that is cancelled already', async () => {
    const { actor, fakes } = startCalendar();
    fakes.loadEvents.resolve(week([appointmentEvent()]));
    await flush();
    actor.send({ type: 'appointment.open', appointmentId: appointmentEvent().appointmentId! });
    fakes.loadAppointment.resolve(appointment({ cancelledAt: '2026-03-20T10:00:00.000Z' }));
    await flush();
    expect(actor.getSnapshot().can({ type: 'cancel.request' })).toBe(false);
  });
});

function startBooking(role: 'COACH' | 'ADMIN' = 'COACH', kind: 'regular' | 'adhoc' = 'regular') {
  const clock = new SimulatedClock();
  const fakes = {
    loadCoaches: fake<any, CoachOption[]>(),
    searchClients: fake<{ query: string }, ClientSummary[]>(),
    loadSlots: fake<SlotQuery, FreeSlot[]>(),
    createAppointment: fake<BookingRequest, Appointment>(),
  };
  const notifyBooked = vi.fn();
  const actor = createActor(
    bookingMachine.provide({
      actors: {
        loadCoaches: fakes.loadCoaches.logic,
        searchClients: fakes.searchClients.logic,
        // The real slot picker, with the booking page's slot and booking calls faked.
        slotPicker: slotPickerMachine.provide({
          actors: {
            loadSlots: fakes.loadSlots.logic as never,
            submit: fakes.createAppointment.logic,
          },
        }),
      },
      actions: { notifyBooked },
    }),
    {
      input: {
        kind,
        canPickCoach: role !== 'COACH',
        ownCoachId: role === 'COACH' ? COACH_ID : null,
        today: WED_25_MARCH,
      },
      clock,
    },
  ).start();
  /** The picker the page shows while a slot is chosen, confirmed and booked. */
  const picker = () =>
    actor.getSnapshot().children.slotPicker as ActorRefFrom<typeof slotPickerMachine>;
  return { actor, fakes, clock, notifyBooked, picker };
}

const ERIKA: ClientSummary = {
  id: CLIENT_ID,
  firstName: 'Erika',
  lastName: 'Mustermann',
  email: 'erika@example.test',
  yearOfBirth: 1980,
};

describe('appointment booking machine', () => {
  it('searches clients only after a typing pause', async () => {
    const { actor, fakes, clock } = startBooking();
    actor.send({ type: 'client.query', query: 'E' });
    clock.increment(1000);
    expect(fakes.searchClients.calls).toHaveLength(0);
    actor.send({ type: 'client.query', query: 'Er' });
    clock.increment(200);
    actor.send({ type: 'client.query', query: 'Eri' });
    clock.increment(299);
    expect(fakes.searchClients.calls).toHaveLength(0);
    clock.increment(1);
    expect(fakes.searchClients.calls).toEqual([{ query: 'Eri' }]);
    fakes.searchClients.resolve([ERIKA]);
    await flush();
    expect(actor.getSnapshot().matches({ choosingClient: 'results' })).toBe(true);
  });

  it("books into a coach's own free slot with the type's default length", async () => {
    const { actor, fakes, notifyBooked, picker } = startBooking();
    actor.send({ type: 'client.select', client: ERIKA });
    expect(fakes.loadSlots.calls).toMatchObject([
      {
        coachId: COACH_ID,
        duration: 50,
        startDate: '2026-03-22T23:00:00Z',
        endDate: '2026-03-29T22:00:00Z',
      },
    ]);
    actor.send({ type: 'type.select', appointmentType: 'first' });
    expect(fakes.loadSlots.calls.at(-1)!.duration).toBe(60);
    fakes.loadSlots.resolve([]);
    fakes.loadSlots.resolve([slot('2026-03-26T09:00:00.000Z', '2026-03-26T10:00:00.000Z')]);
    await flush();
    picker().send({
      type: 'slot.select',
      slot: slot('2026-03-26T09:00:00.000Z', '2026-03-26T10:00:00.000Z'),
    });
    picker().send({ type: 'booking.confirm' });
    const request = fakes.createAppointment.calls[0]!;
    expect(request.body).toEqual({
      clientId: CLIENT_ID,
      coachId: COACH_ID,
      startDate: '2026-03-26T09:00:00.000Z',
      endDate: '2026-03-26T10:00:00.000Z',
      appointmentType: 'first',
      meetingType: 'jitsi',
      isProvisional: false,
    });
    expect(request.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    fakes.createAppointment.resolve(appointment({ appointmentType: 'first' }));
    await flush();
    expect(actor.getSnapshot().value).toBe('booked');
    expect(notifyBooked).toHaveBeenCalledTimes(1);
  });

  it('explains a taken slot and shows fresh slots', async () => {
    const { actor, fakes, picker } = startBooking('ADMIN', 'adhoc');
    fakes.loadCoaches.resolve(COACHES);
    await flush();
    actor.send({ type: 'client.select', client: ERIKA });
    expect(picker().getSnapshot().hasTag('needQuery')).toBe(true);
    actor.send({ type: 'coach.select', coachId: OTHER_COACH_ID });
    actor.send({ type: 'duration.select', duration: 45 });
    expect(fakes.loadSlots.calls.at(-1)).toMatchObject({ coachId: OTHER_COACH_ID, duration: 45 });
    const taken = slot('2026-03-26T09:00:00.000Z', '2026-03-26T09:45:00.000Z', OTHER_COACH_ID);
    fakes.loadSlots.resolve([taken]);
    fakes.loadSlots.resolve([taken]);
    await flush();
    picker().send({ type: 'slot.select', slot: taken });
    picker().send({ type: 'booking.confirm' });
    const firstKey = fakes.createAppointment.calls[0]!.idempotencyKey;
    expect(fakes.createAppointment.calls[0]!.body.appointmentType).toBe('adhoc');
    fakes.createAppointment.reject(apiError(409, 'slot_taken'));
    await flush();
    expect(picker().getSnapshot().hasTag('loading')).toBe(true);
    expect(picker().getSnapshot().context.conflict).toBe('slot_taken');
    expect(fakes.loadSlots.calls.at(-1)).toMatchObject({ coachId: OTHER_COACH_ID, duration: 45 });
    const fresh = slot('2026-03-26T10:00:00.000Z', '2026-03-26T10:45:00.000Z', OTHER_COACH_ID);
    fakes.loadSlots.resolve([fresh]);
    await flush();
    expect(picker().getSnapshot().context.slots).toEqual([fresh]);
    picker().send({ type: 'slot.select', slot: fresh });
    picker().send({ type: 'booking.confirm' });
    expect(fakes.createAppointment.calls[1]!.idempotencyKey).not.toBe(firstKey);
  });

  it('keeps the idempotency key when the same booking is retried after an error', async () => {
    const { actor, fakes, picker } = startBooking();
    actor.send({ type: 'client.select', client: ERIKA });
    const free = slot('2026-03-26T09:00:00.000Z', '2026-03-26T09:50:00.000Z');
    fakes.loadSlots.resolve([free]);
    await flush();
    picker().send({ type: 'slot.select', slot: free });
    picker().send({ type: 'booking.confirm' });
    fakes.createAppointment.reject(Object.assign(new Error('offline'), { code: 'network_error' }));
    await flush();
    expect(picker().getSnapshot().hasTag('confirm')).toBe(true);
    expect(picker().getSnapshot().hasTag('submitting')).toBe(false);
    expect(picker().getSnapshot().context.error).toEqual({ code: 'network_error' });
    picker().send({ type: 'booking.confirm' });
    expect(fakes.createAppointment.calls[1]!.idempotencyKey).toBe(
      fakes.createAppointment.calls[0]!.idempotencyKey,
    );
  });

  it('keeps the browsed week, coach and type when the client is changed', async () => {
    const { actor, fakes, picker } = startBooking();
    actor.send({ type: 'client.select', client: ERIKA });
    actor.send({ type: 'type.select', appointmentType: 'first' });
    picker().send({ type: 'week.next' });
    expect(fakes.loadSlots.calls.at(-1)).toMatchObject({
      duration: 60,
      startDate: '2026-03-29T22:00:00Z',
    });
    actor.send({ type: 'client.change' });
    expect(actor.getSnapshot().hasTag('choosingClient')).toBe(true);
    actor.send({ type: 'client.select', client: ERIKA });
    expect(fakes.loadSlots.calls.at(-1)).toMatchObject({
      coachId: COACH_ID,
      duration: 60,
      startDate: '2026-03-29T22:00:00Z',
      endDate: '2026-04-05T22:00:00Z',
    });
    expect(picker().getSnapshot().context.weekStart).toBe('2026-03-30');
  });
});
