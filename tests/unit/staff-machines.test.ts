import { Temporal } from '@js-temporal/polyfill';
import { beforeEach, describe, expect, it } from 'vitest';
import { createActor, fromPromise, type ActorRefFrom } from 'xstate';
import { ApiError } from '../../src/api/errors';
import type { components } from '../../shared/contract/product';
import { appointmentsQueryOf } from '../../src/machines/actors/staff/appointments';
import { clientsQueryOf } from '../../src/machines/actors/staff/clients';
import {
  appointmentDetailMachine,
  type AppointmentDetail,
} from '../../src/machines/appointment-detail.machine';
import { appointmentFormSchema } from '../../src/forms/appointment-staff-form';
import {
  clientStaffDetailMachine,
  type ClientDetail,
} from '../../src/machines/client-staff-detail.machine';
import { clientFormSchema, newClientValues } from '../../src/forms/client-staff-form';
import { preAppointmentMachine } from '../../src/machines/pre-appointment.machine';
import { slotPickerMachine } from '../../src/machines/slot-picker.machine';
import { recordFormMachine } from '../../src/machines/record-form.machine';
import { ageOf, formatDateTime, formatRange } from '../../src/views/staff/format';
import { fieldErrorKey } from '../../src/views/staff/ListParts';
import staffDe from '../../src/i18n/locales/de/staff.json';

/** The staff workspace's machines and mappings, with fake API calls. */

type Appointment = components['schemas']['Appointment'];
type Client = components['schemas']['Client'];

const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

function fake<I, O>() {
  const calls: Array<{ input: I; resolve: (v: O) => void; reject: (e: unknown) => void }> = [];
  return {
    calls,
    logic: fromPromise<O, I>(
      ({ input }) => new Promise<O>((resolve, reject) => calls.push({ input, resolve, reject })),
    ),
    latest: () => calls.at(-1)!,
  };
}

const APPOINTMENT = {
  id: '55555555-5555-4555-8555-555555555555',
  startDate: '2026-03-29T07:00:00.000Z',
  endDate: '2026-03-29T07:50:00.000Z',
  cancelledAt: null,
  noShow: false,
} as unknown as Appointment;

const CLIENT = {
  id: '33333333-3333-4333-8333-333333333333',
  firstName: 'Mia',
  lastName: 'Maier',
  sessionsClosedOn: null,
  hasNotSignedRequiredContract: true,
} as unknown as Client;

describe('list queries for the API', () => {
  it('appointment days are Berlin days, both included, across the change to summer time', () => {
    const query = appointmentsQueryOf({
      page: 2,
      limit: 10,
      filters: {
        from: '2026-03-29',
        to: '2026-03-29',
        cancelled: 'false',
        appointmentType: 'initial',
      },
    });
    // 29 March 2026: midnight is still winter time (UTC+1), the next midnight summer time (UTC+2).
    expect(query).toEqual({
      page: 2,
      limit: 10,
      fromDate: '2026-03-28T23:00:00Z',
      toDate: '2026-03-29T22:00:00Z',
      cancelled: false,
      appointmentType: 'initial',
    });
  });

  it('client filters become typed parameters', () => {
    expect(
      clientsQueryOf({
        page: 1,
        limit: 10,
        filters: {
          minFollowupAppointments: '2',
          hasRejected: 'true',
          createdAfter: '2026-01-01',
          sortBy: 'createdAt',
          sortOrder: 'desc',
        },
      }),
    ).toEqual({
      page: 1,
      limit: 10,
      minFollowupAppointments: 2,
      hasRejected: true,
      createdAfter: '2025-12-31T23:00:00Z',
      sortBy: 'createdAt',
      sortOrder: 'desc',
    });
  });
});

describe('German formats', () => {
  it('show Berlin wall time, 24 h, dd.MM.yyyy', () => {
    expect(formatDateTime('2026-10-25T00:30:00Z')).toBe('25.10.2026, 02:30');
    expect(formatDateTime('2026-10-25T01:30:00Z')).toBe('25.10.2026, 02:30');
    expect(formatRange('2026-03-29T07:00:00Z', '2026-03-29T07:50:00Z')).toBe(
      '29.03.2026, 09:00–09:50',
    );
  });

  it('age is the current year minus the year of birth', () => {
    expect(ageOf(1980, Temporal.Instant.from('2026-01-01T00:00:00Z'))).toBe(46);
    expect(ageOf(null)).toBeNull();
  });
});

describe('appointment detail', () => {
  // An hour before APPOINTMENT starts, unless a test moves the clock.
  let now = Date.parse('2026-03-29T06:00:00Z');
  beforeEach(() => {
    now = Date.parse('2026-03-29T06:00:00Z');
  });
  function start(askToCancel = false) {
    const load = fake<{ id: string; withEvents: boolean }, AppointmentDetail>();
    const cancel = fake<{ id: string }, Appointment>();
    const noShow = fake<{ id: string; noShow: boolean }, Appointment>();
    const resend = fake<{ id: string }, void>();
    const notified: string[] = [];
    const actor = createActor(
      appointmentDetailMachine.provide({
        actors: {
          loadDetail: load.logic,
          cancelAppointment: cancel.logic,
          setNoShow: noShow.logic,
          resendInvites: resend.logic,
        },
        actions: { notify: (_, p) => void notified.push(p.action) },
      }),
      { input: { id: APPOINTMENT.id, withEvents: true, askToCancel, now: () => now } },
    ).start();
    return { actor, load, cancel, noShow, resend, notified };
  }
  const detail = (a: Partial<Appointment> = {}): AppointmentDetail => ({
    appointment: { ...APPOINTMENT, ...a },
    communications: [],
    events: [],
  });

  it('cancels only after the confirmation, then loads again and says so', async () => {
    const { actor, load, cancel, notified } = start();
    load.latest().resolve(detail());
    await flush();
    actor.send({ type: 'cancel.request' });
    expect(actor.getSnapshot().matches({ ready: { action: 'confirmingCancel' } })).toBe(true);
    expect(cancel.calls).toHaveLength(0);
    actor.send({ type: 'cancel.abort' });
    expect(actor.getSnapshot().matches({ ready: { action: 'idle' } })).toBe(true);
    expect(cancel.calls).toHaveLength(0);
    actor.send({ type: 'cancel.request' });
    actor.send({ type: 'cancel.confirm' });
    await flush();
    expect(cancel.calls.map((c) => c.input)).toEqual([{ id: APPOINTMENT.id }]);
    cancel.latest().resolve({ ...APPOINTMENT, cancelledAt: '2026-03-20T10:00:00Z' });
    await flush();
    expect(notified).toEqual(['cancelled']);
    expect(actor.getSnapshot().value).toBe('loading');
    expect(load.calls).toHaveLength(2);
  });

  it('/cancel-appointment/{id} opens with the question; a cancelled one does not ask', async () => {
    const live = start(true);
    live.load.latest().resolve(detail());
    await flush();
    expect(live.actor.getSnapshot().matches({ ready: { action: 'confirmingCancel' } })).toBe(true);

    const gone = start(true);
    gone.load.latest().resolve(detail({ cancelledAt: '2026-03-20T10:00:00Z' }));
    await flush();
    expect(gone.actor.getSnapshot().matches({ ready: { action: 'idle' } })).toBe(true);
    expect(gone.actor.getSnapshot().can({ type: 'cancel.request' })).toBe(false);
    expect(gone.actor.getSnapshot().can({ type: 'invites.resend' })).toBe(false);
  });

  it('toggles no-show and keeps a failure for its message', async () => {
    now = Date.parse('2026-03-29T08:00:00Z');
    const { actor, load, noShow } = start();
    load.latest().resolve(detail({ noShow: true }));
    await flush();
    actor.send({ type: 'noShow.toggle' });
    await flush();
    expect(noShow.latest().input).toEqual({ id: APPOINTMENT.id, noShow: false });
    noShow
      .latest()
      .reject(new ApiError({ status: 409, code: 'appointment_cancelled', fieldErrors: [] }));
    await flush();
    expect(actor.getSnapshot().matches({ ready: { action: 'idle' } })).toBe(true);
    expect(actor.getSnapshot().context.actionError).toEqual({
      code: 'appointment_cancelled',
      status: 409,
    });
  });

  it('offers cancel and invitations until the end, no-show once started, nothing when cancelled', async () => {
    const offers = async (at: string, a: Partial<Appointment> = {}) => {
      now = Date.parse(at);
      const { actor, load } = start();
      load.latest().resolve(detail(a));
      await flush();
      const s = actor.getSnapshot();
      return {
        cancel: s.can({ type: 'cancel.request' }) && s.hasTag('offersCancel'),
        invites: s.can({ type: 'invites.resend' }) && s.hasTag('offersInvites'),
        noShow: s.can({ type: 'noShow.toggle' }) && s.hasTag('offersNoShow'),
      };
    };
    // APPOINTMENT runs 07:00–07:50 UTC.
    expect(await offers('2026-03-29T06:59:59Z')).toEqual({
      cancel: true,
      invites: true,
      noShow: false,
    });
    expect(await offers('2026-03-29T07:00:00Z')).toEqual({
      cancel: true,
      invites: true,
      noShow: true,
    });
    expect(await offers('2026-03-29T07:50:00Z')).toEqual({
      cancel: false,
      invites: false,
      noShow: true,
    });
    expect(await offers('2026-03-29T07:50:00Z', { noShow: true })).toEqual({
      cancel: false,
      invites: false,
      noShow: true,
    });
    expect(await offers('2026-03-29T06:00:00Z', { cancelledAt: '2026-03-20T10:00:00Z' })).toEqual({
      cancel: false,
      invites: false,
      noShow: false,
    });
    expect(await offers('2026-03-30T06:00:00Z', { cancelledAt: '2026-03-20T10:00:00Z' })).toEqual({
      cancel: false,
      invites: false,
      noShow: false,
    });
  });

  it('/cancel-appointment/{id} of an appointment that has ended does not ask', async () => {
    now = Date.parse('2026-03-29T08:00:00Z');
    const { actor, load } = start(true);
    load.latest().resolve(detail());
    await flush();
    expect(actor.getSnapshot().matches({ ready: { action: 'idle' } })).toBe(true);
    expect(actor.getSnapshot().can({ type: 'cancel.request' })).toBe(false);
  });
});

describe('client detail', () => {
  function start() {
    const load = fake<{ id: string }, ClientDetail>();
    const sessions = fake<{ id: string; closed: boolean }, Client>();
    const reminder = fake<{ id: string }, { sentAt: string }>();
    const actor = createActor(
      clientStaffDetailMachine.provide({
        actors: {
          loadDetail: load.logic,
          setSessionsClosed: sessions.logic,
          sendContractReminder: reminder.logic,
        },
      }),
      { input: { id: CLIENT.id } },
    ).start();
    return { actor, load, sessions, reminder };
  }
  const detail: ClientDetail = {
    client: CLIENT,
    appointments: { rows: [], itemCount: 0 },
    communications: [],
  };

  it('a 501 contract reminder takes the button away and says so, without an error', async () => {
    const { actor, load, reminder } = start();
    load.latest().resolve(detail);
    await flush();
    expect(actor.getSnapshot().can({ type: 'reminder.send' })).toBe(true);
    actor.send({ type: 'reminder.send' });
    await flush();
    reminder
      .latest()
      .reject(new ApiError({ status: 501, code: 'not_implemented', fieldErrors: [] }));
    await flush();
    const snap = actor.getSnapshot();
    expect(snap.context.reminderUnavailable).toBe(true);
    expect(snap.context.actionError).toBeNull();
    expect(snap.can({ type: 'reminder.send' })).toBe(false);
  });

  it('closing the sessions asks first', async () => {
    const { actor, load, sessions } = start();
    load.latest().resolve(detail);
    await flush();
    actor.send({ type: 'sessions.close' });
    expect(sessions.calls).toHaveLength(0);
    actor.send({ type: 'close.confirm' });
    await flush();
    expect(sessions.calls.map((c) => c.input)).toEqual([{ id: CLIENT.id, closed: true }]);
  });
});

describe('client and appointment forms', () => {
  it('a relative needs a contact person; the body nests it', () => {
    const values = {
      ...newClientValues(),
      firstName: 'Mia',
      lastName: 'Maier',
      clientType: 'relative',
    };
    const bad = clientFormSchema.safeParse(values);
    expect(bad.success).toBe(false);
    const good = clientFormSchema.parse({
      ...values,
      'contactPerson.firstName': 'Jonas',
      'contactPerson.lastName': 'Maier',
      yearOfBirth: '1950',
      country: 'de',
    });
    expect(good).toMatchObject({
      firstName: 'Mia',
      yearOfBirth: 1950,
      country: 'DE',
      clientType: 'relative',
      contactPerson: { firstName: 'Jonas', lastName: 'Maier', email: null, telephone: null },
    });
    expect(Object.keys(good)).not.toContain('contactPerson.firstName');
  });

  it('refuses what sign-up refuses, each field with its own German message', () => {
    const parsed = clientFormSchema.safeParse({
      ...newClientValues(),
      firstName: 'Mia',
      lastName: 'Maier',
      postalCode: 'ABCDE',
      initialDiagnosis: '2099-01-01',
      yearOfBirth: '1901',
      insurerCode: 'A1',
      telephone: '12345',
    });
    expect(parsed.success).toBe(false);
    const codes = Object.fromEntries(
      (parsed.success ? [] : parsed.error.issues).map((i) => [String(i.path[0]), i.message]),
    );
    expect(codes).toEqual({
      postalCode: 'invalid_postal_code',
      initialDiagnosis: 'implausible_date',
      yearOfBirth: 'invalid_year',
      insurerCode: 'invalid_insurer_code',
      telephone: 'invalid_phone',
    });
    // Each code has its own German message in the form (not the generic one).
    const de = (code: string) => {
      const [, path] = fieldErrorKey(code).split(':');
      return path!.split('.').reduce<any>((o, k) => o?.[k], staffDe) as string;
    };
    expect(de('implausible_date')).toBe('Bitte ein Datum zwischen 1900 und heute angeben.');
    expect(de('invalid_postal_code')).toContain('Postleitzahl des gewählten Landes');
    expect(de('invalid_insurer_code')).toContain('Versichertennummer');
    expect(de('invalid_phone')).toContain('gültige Telefonnummer');
  });

  it('appointment times are Berlin wall time; an end before the start is named at the end', () => {
    const values = {
      date: '2026-03-29',
      startTime: '09:00',
      endTime: '09:50',
      appointmentType: 'followup',
      meetingType: 'jitsi',
      isProvisional: false,
      noShow: false,
      externalMeetingUrl: '',
    };
    expect(appointmentFormSchema.parse(values)).toMatchObject({
      startDate: '2026-03-29T07:00:00Z',
      endDate: '2026-03-29T07:50:00Z',
      externalMeetingUrl: null,
    });
    const bad = appointmentFormSchema.safeParse({ ...values, endTime: '08:00' });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['endTime', 'end_before_start'],
    ]);
  });
});

describe('pre-appointment', () => {
  it('creates the client, then books an initial appointment; a taken slot gives fresh slots', async () => {
    const save = fake<unknown, Client>();
    const slots = fake<
      { coachId: string; duration: number },
      Array<components['schemas']['FreeSlot']>
    >();
    const book = fake<{ idempotencyKey: string; body: Record<string, unknown> }, Appointment>();
    const actor = createActor(
      preAppointmentMachine.provide({
        actors: {
          clientForm: recordFormMachine.provide({
            actors: { saveRecord: save.logic as never },
          }) as never,
          slotPicker: slotPickerMachine.provide({
            actors: { loadSlots: slots.logic as never, submit: book.logic as never },
          }),
        },
      }),
      { input: { today: Temporal.PlainDate.from('2026-03-25') } },
    ).start();
    const form = actor.getSnapshot().children.clientForm!;
    form.send({ type: 'form.change', field: 'firstName', value: 'Mia' });
    form.send({ type: 'form.change', field: 'lastName', value: 'Maier' });
    form.send({ type: 'form.submit' });
    await flush();
    save.latest().resolve(CLIENT);
    await flush();
    const picker = () =>
      actor.getSnapshot().children.slotPicker as ActorRefFrom<typeof slotPickerMachine>;
    expect(actor.getSnapshot().matches('choosingSlot')).toBe(true);
    expect(picker().getSnapshot().matches({ picking: 'loading' })).toBe(true);
    expect(slots.latest().input).toMatchObject({ coachId: 'initial-meetings', duration: 30 });
    const slot = {
      startDate: '2026-03-26T09:00:00Z',
      endDate: '2026-03-26T09:30:00Z',
      coachId: '11111111-1111-4111-8111-111111111111',
      coach: { id: '11111111-1111-4111-8111-111111111111', firstName: 'Clara', lastName: 'Coach' },
    };
    slots.latest().resolve([slot]);
    await flush();
    picker().send({ type: 'slot.select', slot });
    picker().send({ type: 'booking.confirm' });
    await flush();
    expect(book.latest().input.body).toMatchObject({
      clientId: CLIENT.id,
      appointmentType: 'initial',
      coachId: slot.coachId,
    });
    book.latest().reject(new ApiError({ status: 409, code: 'slot_taken', fieldErrors: [] }));
    await flush();
    expect(picker().getSnapshot().matches({ picking: 'loading' })).toBe(true);
    expect(picker().getSnapshot().context.conflict).toBe('slot_taken');
    expect(slots.calls).toHaveLength(2);
  });
});
