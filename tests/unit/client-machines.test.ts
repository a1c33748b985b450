import { describe, expect, it, vi } from 'vitest';
import { createActor, createMachine, fromCallback, fromPromise, type AnyEventObject } from 'xstate';
import { appointmentSelectionMachine } from '../../src/machines/client-appointment-selection.machine';
import {
  clientAppointmentsMachine,
  untilRoomChange,
} from '../../src/machines/client-appointments.machine';
import { cancelMachine, type CancelView } from '../../src/machines/client-cancel.machine';
import { coachChange, rescheduleMachine } from '../../src/machines/client-reschedule.machine';
import {
  clientSignupMachine,
  watchRegistrationLogic,
} from '../../src/machines/client-signup.machine';
import {
  appointmentIcs,
  berlinClock,
  berlinDay,
  groupByDay,
  slotWindow,
  toClientError,
  zoneDiffers,
  type ClientAppointment,
  type FreeSlot,
} from '../../src/lib/client-slots';
import { isPhoneNumber, isPostalCode } from '../../shared/client-fields.rules';
import {
  campaignFrom,
  emptySignupForm,
  OTHER_INSURER,
  type SignupFormValues,
} from '../../src/forms/client-signup.form';
import {
  checkSignupForm,
  toSignupRequest,
  validateSignupForm,
} from '../../src/forms/client-signup.validation';
import { slotPickerMachine, type SlotPickerInput } from '../../src/machines/slot-picker.machine';
import { describeModel, done, failed, fake, flush, startMachine } from '../support/model';

/**
 * The client pages' machines. Model-based: the paths come from the real machines
 * (xstate/graph, shortest paths over every UI event and every actor result), a guard test
 * asserts they reach every state, and each path is played on a live actor whose API actors are
 * controllable fakes; in every state on the way the test checks what a caller of the API (or
 * the page) would notice: which request went out with what, and what the page has to show.
 */

const NOW = Date.parse('2027-03-22T09:00:00Z');
const YEAR = 2027;
const COACH = { id: '11111111-1111-4111-8111-111111111111', firstName: 'Clara', lastName: 'Coach' };
const APPOINTMENT_ID = '55555555-5555-4555-8555-555555555555';

const slot = (iso: string): FreeSlot => ({
  startDate: iso,
  endDate: new Date(Date.parse(iso) + 30 * 60_000).toISOString(),
  coachId: COACH.id,
  coach: COACH,
});
const SLOTS = [
  slot('2027-03-24T08:00:00Z'),
  slot('2027-03-24T08:30:00Z'),
  slot('2027-03-26T13:00:00Z'),
];

const appointment = (over: Partial<ClientAppointment> = {}): ClientAppointment => ({
  id: APPOINTMENT_ID,
  startDate: '2027-03-25T09:00:00Z',
  endDate: '2027-03-25T09:30:00Z',
  appointmentType: 'initial',
  meetingType: 'jitsi',
  meetingCodeClient: 'abcd-efgh-jkmn',
  cancelledAt: null,
  coach: COACH,
  isProvisional: false,
  externalMeetingUrl: null,
  createdAt: '2027-03-20T09:00:00Z',
  updatedAt: '2027-03-20T09:00:00Z',
  joinableFrom: '2027-03-25T08:50:00Z',
  joinableUntil: '2027-03-25T10:00:00Z',
  ...over,
});

const apiError = (code: string, fields?: string[]) =>
  Object.assign(new Error(code), {
    name: 'ApiError',
    code,
    fieldErrors: (fields ?? []).map((field) => ({ field, code: 'invalid' })),
  });
const NETWORK = Object.assign(new Error('offline'), {
  name: 'NetworkError',
  code: 'network_error',
});

// ---------------------------------------------------------------------------------------------

describe('sign-up form validation (zod, German messages)', () => {
  const valid: SignupFormValues = {
    ...emptySignupForm(),
    firstName: 'Klara',
    lastName: 'Neu',
    email: 'klara@example.de',
    telephone: '0151 2345678',
    yearOfBirth: '1985',
    street: 'Hauptstraße 1',
    postalCode: '10115',
    city: 'Berlin',
    privacyConsent: true,
  };

  it('accepts a complete form and starts with SMS notifications on and Germany', () => {
    expect(emptySignupForm()).toMatchObject({
      notifyViaSms: false,
      country: 'DE',
      bookingFor: 'self',
    });
    expect(validateSignupForm(valid, YEAR).ok).toBe(true);
  });

  it.each([
    ['firstName', '', 'validation.firstNameRequired'],
    ['lastName', '  ', 'validation.lastNameRequired'],
    ['email', '', 'validation.emailRequired'],
    ['email', 'klara@', 'validation.email'],
    ['email', '12345', 'validation.email'],
    ['telephone', '', 'validation.telephoneRequired'],
    ['telephone', '151-abc', 'validation.telephone'],
    ['telephone', '12345', 'validation.telephone'],
    ['additionalTelephoneNumbers', '0151 2345678, 12', 'validation.additionalTelephoneNumbers'],
    ['yearOfBirth', '', 'validation.yearOfBirthRequired'],
    ['yearOfBirth', '85', 'validation.yearOfBirth'],
    ['yearOfBirth', '2028', 'validation.yearOfBirth'],
    ['yearOfBirth', '1900', 'validation.yearOfBirth'],
    ['street', '', 'validation.streetRequired'],
    ['postalCode', '', 'validation.postalCodeRequired'],
    ['postalCode', '1011', 'validation.postalCodeDe'],
    ['postalCode', '10115a', 'validation.postalCodeDe'],
    ['city', '', 'validation.cityRequired'],
    ['insurerCode', 'A1', 'validation.insurerCode'],
    ['privacyConsent', false, 'validation.privacyConsent'],
  ] as const)('%s = %j → %s', (field, value, message) => {
    const result = validateSignupForm({ ...valid, [field]: value }, YEAR);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors[field]).toBe(message);
  });

  it('accepts German ways of writing telephone numbers and per-country postal codes', () => {
    for (const phone of [
      '0151 2345678',
      '+49 151 2345678',
      '0151-2345678',
      '030/1234567',
      '(030) 123 45 67',
      '+49 (0)30 1234567',
    ]) {
      expect(isPhoneNumber(phone), phone).toBe(true);
    }
    for (const phone of ['abc', '+49', '49+151234567', '0151 23x'])
      expect(isPhoneNumber(phone), phone).toBe(false);
    expect(isPostalCode('DE', '01067')).toBe(true);
    expect(isPostalCode('AT', '1010')).toBe(true);
    expect(isPostalCode('DE', '1010')).toBe(false);
    expect(isPostalCode('NL', '1012 AB')).toBe(true);
  });

  it('asks for the relative’s name when booking for a relative and sends the booker as contact person', () => {
    const relative = { ...valid, bookingFor: 'relative' as const };
    const missing = validateSignupForm(relative, YEAR);
    expect(missing.ok).toBe(false);
    if (!missing.ok) {
      expect(missing.errors.relativeFirstName).toBe('validation.firstNameRequired');
      expect(missing.errors.relativeLastName).toBe('validation.lastNameRequired');
    }
    const ok = validateSignupForm(
      { ...relative, relativeFirstName: 'Opa', relativeLastName: 'Heinz' },
      YEAR,
    );
    expect(ok.ok).toBe(true);
    if (ok.ok) {
      expect(toSignupRequest(ok.form, 'herbst')).toMatchObject({
        firstName: 'Opa',
        lastName: 'Heinz',
        email: 'klara@example.de',
        clientType: 'relative',
        contactPerson: {
          firstName: 'Klara',
          lastName: 'Neu',
          email: 'klara@example.de',
          telephone: '0151 2345678',
        },
        campaign: 'herbst',
        notifyViaSms: false,
        privacyConsent: true,
      });
    }
  });

  it('offers the practice’s insurers: a pick is sent by name, "andere" sends the typed name, and a name typed there does not outlive that choice', async () => {
    const { actor, fakes } = startMachine(clientSignupMachine, {
      input: { campaign: null, currentYear: YEAR, values: valid },
      actors: { watchRegistration: fromCallback(() => () => {}) },
    });
    expect(actor.getSnapshot().context.insurers).toBeNull();
    fakes.loadInsurers!.resolve(['AOK Nordost', 'Techniker Krankenkasse']);
    await flush();
    expect(actor.getSnapshot().context.insurers).toEqual(['AOK Nordost', 'Techniker Krankenkasse']);
    const change = (field: keyof SignupFormValues, value: string) =>
      actor.send({ type: 'field.change', field, value });
    const sent = () => {
      const result = validateSignupForm(actor.getSnapshot().context.values, YEAR);
      if (!result.ok) throw new Error(JSON.stringify(result.errors));
      return toSignupRequest(result.form, null).insurer;
    };
    change('insurerChoice', 'Techniker Krankenkasse');
    expect(sent()).toBe('Techniker Krankenkasse');
    change('insurerChoice', OTHER_INSURER);
    change('insurer', 'BKK Musterstadt');
    expect(sent()).toBe('BKK Musterstadt');
    change('insurerChoice', '');
    expect(actor.getSnapshot().context.values.insurer).toBe('');
    expect(sent()).toBeUndefined();
  });

  it('lets the insurer be typed when the catalogue cannot be loaded', async () => {
    const { actor, fakes } = startMachine(clientSignupMachine, {
      input: { campaign: null, currentYear: YEAR, values: valid },
      actors: { watchRegistration: fromCallback(() => () => {}) },
    });
    fakes.loadInsurers!.reject(NETWORK);
    await flush();
    expect(actor.getSnapshot().context.insurers).toEqual([]);
    expect(actor.getSnapshot().matches('editing')).toBe(true);
  });

  it('takes the campaign from the link and ignores anything that is not a campaign name', () => {
    expect(campaignFrom('?campaign=herbst-2026')).toBe('herbst-2026');
    expect(campaignFrom('?campaign=%3Cscript%3E')).toBeNull();
    expect(campaignFrom('')).toBeNull();
  });
});

describe('slots, times and the calendar file', () => {
  it('groups slots by Berlin day and shows Berlin wall time across the March DST change', () => {
    // 2027-03-28 is the last Sunday of March: 01:30 UTC is 03:30 CEST.
    const days = groupByDay([
      slot('2027-03-28T01:30:00Z'),
      slot('2027-03-27T22:30:00Z'),
      slot('2027-03-26T23:30:00Z'),
    ]);
    expect(days.map((d) => [d.day, d.slots.length])).toEqual([
      ['2027-03-27', 2],
      ['2027-03-28', 1],
    ]);
    expect(berlinClock('2027-03-28T01:30:00Z')).toBe('03:30');
    expect(berlinClock('2027-10-31T01:30:00Z')).toBe('02:30');
    expect(berlinDay('2027-03-27T23:30:00Z')).toBe('2027-03-28');
  });

  it('asks for 28 days from now', () => {
    const w = slotWindow(NOW);
    expect(Date.parse(w.endDate) - Date.parse(w.startDate)).toBe(28 * 86_400_000);
  });

  it('knows when the browser zone shows other times than Berlin', () => {
    expect(zoneDiffers('Europe/Berlin', NOW)).toBe(false);
    expect(zoneDiffers('Europe/Paris', NOW)).toBe(false);
    expect(zoneDiffers('Europe/London', NOW)).toBe(true);
    expect(zoneDiffers('America/New_York', NOW)).toBe(true);
  });

  it('makes an iCalendar event with the start, end and meeting link', () => {
    const ics = appointmentIcs(appointment(), {
      origin: 'https://app.example',
      summary: 'Erstgespräch mit Clara Coach',
      now: NOW,
    });
    expect(ics).toContain('BEGIN:VEVENT');
    expect(ics).toContain('DTSTART:20270325T090000Z');
    expect(ics).toContain('DTEND:20270325T093000Z');
    expect(ics).toContain(`UID:appointment-${APPOINTMENT_ID}@app.example`);
    expect(ics.replace(/\r\n /g, '')).toContain('https://app.example/meeting/abcd-efgh-jkmn');
    expect(ics.split('\r\n').every((line) => new TextEncoder().encode(line).length <= 75)).toBe(
      true,
    );
  });

  it('reads the code and named fields of an API error', () => {
    expect(toClientError(apiError('validation_failed', ['body.postalCode']))).toEqual({
      code: 'validation_failed',
      fields: { postalCode: 'invalid' },
    });
    expect(toClientError(NETWORK).code).toBe('network');
  });
});

// ---------------------------------------------------------------------------------------------

describe('sign-up machine, model-based', () => {
  const filled: Partial<SignupFormValues> = {
    firstName: 'Klara',
    lastName: 'Neu',
    email: 'klara@example.de',
    telephone: '0151 2345678',
    yearOfBirth: '1985',
    street: 'Hauptstraße 1',
    postalCode: '10115',
    city: 'Berlin',
  };
  const input = { campaign: 'herbst', currentYear: YEAR, values: filled };
  // What the form's rules (loaded on submit) answer for the filled form with and without consent.
  const check = (privacyConsent: boolean) =>
    checkSignupForm({
      values: { ...emptySignupForm(), ...filled, privacyConsent },
      currentYear: YEAR,
      campaign: 'herbst',
    });
  const fakeFlow = createActor(createMachine({})).start();
  const events: AnyEventObject[] = [
    { type: 'field.change', field: 'privacyConsent', value: true },
    { type: 'form.submit' },
    done('validateForm', check(true)),
    done('validateForm', check(false)),
    failed('validateForm', NETWORK),
    { type: 'form.edit' },
    { type: 'registration.attach', flow: fakeFlow },
    { type: 'registration.succeeded', token: 'token-1' },
    { type: 'link.retry' },
    done('checkSignup', undefined),
    failed('checkSignup', apiError('validation_failed', ['body.postalCode'])),
    failed('checkSignup', NETWORK),
    done('linkSignup', { clientId: 'c1' }),
    failed('linkSignup', NETWORK),
    done('refreshSession', undefined),
  ];

  describeModel('model-based', {
    machine: clientSignupMachine,
    plans: [
      {
        input,
        events,
        serialize: (s) => ({
          consent: s.context.values.privacyConsent,
          errors: Object.keys(s.context.errors).sort(),
          token: s.context.token,
        }),
      },
    ],
    start: () =>
      startMachine(clientSignupMachine, {
        input,
        actors: { watchRegistration: fromCallback(() => () => {}) },
      }),
    states: {
      'clientSignup.editing.clean': (s) => {
        expect(s.hasTag('busy')).toBe(false);
        expect(s.context.errors).toEqual({});
      },
      'clientSignup.validating': (s, r) => {
        // The form as typed goes to the rules; the form is locked meanwhile.
        expect(r.fakes.validateForm!.calls.at(-1)).toMatchObject({
          values: { email: 'klara@example.de', postalCode: '10115' },
          currentYear: YEAR,
          campaign: 'herbst',
        });
        expect(s.hasTag('busy')).toBe(true);
      },
      'clientSignup.editing.invalid': (s, r) => {
        // The fields carry German messages (typing in one clears its own); nothing is on its way.
        expect(
          Object.values(s.context.errors).every((m) => String(m).startsWith('validation.')),
        ).toBe(true);
        expect(s.hasTag('invalid')).toBe(true);
        expect(r.fakes.checkSignup!.pending()).toBe(0);
      },
      'clientSignup.editing.failed': (s) => {
        expect(s.hasTag('error')).toBe(true);
        expect(s.context.error?.code).toBe('network');
      },
      'clientSignup.checking': (_, r) => {
        const sent = r.fakes.checkSignup!.calls.at(-1);
        expect(sent).toMatchObject({
          email: 'klara@example.de',
          postalCode: '10115',
          campaign: 'herbst',
          privacyConsent: true,
          notifyViaSms: false,
        });
      },
      // The page mounts the widget for the registration; the form can still be edited.
      'clientSignup.registering.starting': (s) => {
        expect(s.context.flow).toBeNull();
        expect(s.can({ type: 'form.edit' })).toBe(true);
      },
      'clientSignup.registering.running': (s) => expect(s.context.flow).toBe(fakeFlow),
      'clientSignup.linking': (_, r) => {
        expect(r.fakes.linkSignup!.calls.at(-1)).toMatchObject({
          token: 'token-1',
          request: { email: 'klara@example.de' },
        });
      },
      'clientSignup.linkFailed': (s) => {
        expect(s.context.error?.code).toBe('network');
        expect(s.can({ type: 'link.retry' })).toBe(true);
      },
      'clientSignup.activating': (s, r) => {
        expect(s.hasTag('busy')).toBe(true);
        expect(r.fakes.refreshSession!.pending()).toBe(1);
      },
      'clientSignup.done': (s) => expect(s.status).toBe('done'),
    },
  });

  it('links an account that is signed in already without registering again', async () => {
    const fakes = {
      checkSignup: fake<any, void>(),
      linkSignup: fake<any, { clientId: string }>(),
      refreshSession: fake<any, void>(),
    };
    const actor = createActor(
      clientSignupMachine.provide({
        actors: {
          checkSignup: fakes.checkSignup.logic,
          linkSignup: fakes.linkSignup.logic,
          refreshSession: fakes.refreshSession.logic,
        },
      }),
      {
        input: { ...input, values: { ...filled, privacyConsent: true }, sessionToken: 'signed-in' },
      },
    ).start();
    actor.send({ type: 'form.submit' });
    // The machine's own validateForm: the rules' module loads on the first submit.
    await vi.waitFor(() => expect(fakes.checkSignup.calls).toHaveLength(1));
    fakes.checkSignup.resolve();
    await flush();
    expect(actor.getSnapshot().value).toBe('linking');
    expect(fakes.linkSignup.calls[0]).toMatchObject({
      token: 'signed-in',
      request: { email: 'klara@example.de' },
    });
    actor.stop();
  });

  it('checks the form with the real rules when it is sent: German messages, nothing sent', async () => {
    const checkSignup = fake<any, void>();
    const actor = createActor(
      clientSignupMachine.provide({ actors: { checkSignup: checkSignup.logic } }),
      {
        input: { ...input, values: { ...filled, postalCode: '1234' } },
      },
    ).start();
    actor.send({ type: 'form.submit' });
    expect(actor.getSnapshot().value).toBe('validating');
    await vi.waitFor(() => expect(actor.getSnapshot().matches({ editing: 'invalid' })).toBe(true));
    expect(actor.getSnapshot().context.errors).toEqual({
      postalCode: 'validation.postalCodeDe',
      privacyConsent: 'validation.privacyConsent',
    });
    expect(checkSignup.calls).toHaveLength(0);
    actor.stop();
  });

  it('types the form’s address into the widget’s registration and reports the session', async () => {
    const flowMachine = createMachine({
      id: 'flow',
      types: {} as { context: any },
      context: {
        response: { actions: { register_login_identifier: {} } },
        session: { token: null },
      },
      initial: 'registration_init',
      states: {
        registration_init: {
          initial: 'idle',
          states: { idle: { on: { 'action.run': '#flow.passcode_confirmation' } } },
        },
        passcode_confirmation: {
          on: {
            ok: {
              target: 'success',
              actions: ({ context }) => {
                context.session.token = 'jwt';
              },
            },
          },
        },
        success: { tags: ['succeeded'] },
      },
    });
    const flow = createActor(flowMachine).start();
    const sent: unknown[] = [];
    const spy = flow.send.bind(flow);
    flow.send = (event: any) => {
      sent.push(event);
      spy(event);
    };
    const parent = createActor(
      createMachine({
        types: {} as { events: any },
        invoke: { src: watchRegistrationLogic, input: { flow, email: 'klara@example.de' } },
        initial: 'waiting',
        states: { waiting: { on: { 'registration.succeeded': 'got' } }, got: {} },
      }),
    ).start();
    expect(sent).toEqual([
      {
        type: 'action.run',
        name: 'register_login_identifier',
        inputs: { email: 'klara@example.de' },
      },
    ]);
    expect(flow.getSnapshot().value).toBe('passcode_confirmation');
    spy({ type: 'ok' });
    expect(parent.getSnapshot().value).toBe('got');
    expect(sent).toHaveLength(1);
  });
});

describe('appointment selection machine', () => {
  const booked = appointment({ startDate: SLOTS[1]!.startDate, endDate: SLOTS[1]!.endDate });
  const events: AnyEventObject[] = [
    done('slotPicker', { outcome: 'submitted', slot: SLOTS[1], result: booked }),
    done('slotPicker', { outcome: 'ended', code: 'initial_appointment_exists' }),
    done('slotPicker', { outcome: 'ended', code: 'not_a_client' }),
    { type: 'calendar.download' },
  ];
  const input = { now: () => NOW };

  describeModel('model-based', {
    machine: appointmentSelectionMachine,
    plans: [{ input, events }],
    start: () => {
      const saved: ClientAppointment[] = [];
      const started = startMachine(appointmentSelectionMachine, {
        input,
        actions: {
          saveCalendar: (_: unknown, p: { appointment: ClientAppointment }) =>
            void saved.push(p.appointment),
        },
      });
      return { ...started, saved };
    },
    states: {
      'appointmentSelection.picking': (s, r) => {
        // The picker asks for the next 28 days of 30-minute slots, from now…
        const picker = r.fakes.slotPicker!.latest().input as SlotPickerInput;
        expect({ ...picker.query, ...picker.window(null) }).toEqual({
          duration: 30,
          ...slotWindow(NOW),
        });
        expect(picker.window(null).startDate).toBe(new Date(NOW).toISOString());
        // …books the confirmed one with its key, and reloads when it was taken meanwhile.
        expect(
          picker.request!({ query: picker.query!, slot: SLOTS[1]!, idempotencyKey: 'key-1' }),
        ).toEqual({
          idempotencyKey: 'key-1',
          startDate: SLOTS[1]!.startDate,
          durationMinutes: 30,
        });
        expect(picker.conflictCodes).toEqual(['slot_taken', 'notice_period']);
        expect(s.hasTag('picking')).toBe(true);
      },
      'appointmentSelection.notClient': (s) => {
        expect(s.hasTag('notClient')).toBe(true);
        expect(s.can({ type: 'calendar.download' })).toBe(false);
      },
      'appointmentSelection.booked': (s, r) => {
        expect(s.context.appointment?.coach.lastName).toBe('Coach');
        expect(r.saved.every((a) => a.id === APPOINTMENT_ID)).toBe(true);
      },
      'appointmentSelection.alreadyBooked': (s) => expect(s.context.appointment).toBeNull(),
    },
  });

  const startWithPicker = () => {
    const fakes = {
      loadSlots: fake<any, FreeSlot[]>(),
      bookAppointment: fake<any, ClientAppointment>(),
    };
    const actor = createActor(
      appointmentSelectionMachine.provide({
        actors: {
          slotPicker: slotPickerMachine.provide({
            actors: { loadSlots: fakes.loadSlots.logic, submit: fakes.bookAppointment.logic },
          }),
        },
      }),
      { input },
    ).start();
    const picker = () => actor.getSnapshot().children.slotPicker!;
    return { fakes, actor, picker };
  };

  it('a new choice gets a new Idempotency-Key; a retry of the same choice keeps it', async () => {
    const { fakes, actor, picker } = startWithPicker();
    fakes.loadSlots.resolve(SLOTS);
    await flush();
    picker().send({ type: 'slot.select', slot: SLOTS[0]! });
    picker().send({ type: 'booking.confirm' });
    fakes.bookAppointment.reject(NETWORK);
    await flush();
    picker().send({ type: 'booking.confirm' });
    expect(fakes.bookAppointment.calls[0].idempotencyKey).toBe(
      fakes.bookAppointment.calls[1].idempotencyKey,
    );
    fakes.bookAppointment.reject(NETWORK);
    await flush();
    picker().send({ type: 'booking.back' });
    picker().send({ type: 'slot.select', slot: SLOTS[2]! });
    picker().send({ type: 'booking.confirm' });
    expect(fakes.bookAppointment.calls[2].idempotencyKey).not.toBe(
      fakes.bookAppointment.calls[0].idempotencyKey,
    );
    actor.stop();
  });

  it('a slot taken meanwhile loads fresh slots and keeps the reason; the client answers end the picking', async () => {
    const { fakes, actor, picker } = startWithPicker();
    fakes.loadSlots.resolve(SLOTS);
    await flush();
    // The first day with free slots is shown.
    expect(picker().getSnapshot().context.day).toBe(berlinDay(SLOTS[0]!.startDate));
    picker().send({ type: 'day.select', day: '2027-03-26' });
    picker().send({ type: 'slot.select', slot: SLOTS[2]! });
    picker().send({ type: 'booking.confirm' });
    fakes.bookAppointment.reject(apiError('notice_period'));
    await flush();
    expect(picker().getSnapshot().hasTag('loading')).toBe(true);
    expect(picker().getSnapshot().context.conflict).toBe('notice_period');
    fakes.loadSlots.resolve(SLOTS);
    await flush();
    // The chosen day still has slots: it stays.
    expect(picker().getSnapshot().context.day).toBe('2027-03-26');
    picker().send({ type: 'slot.select', slot: SLOTS[2]! });
    picker().send({ type: 'booking.confirm' });
    fakes.bookAppointment.reject(apiError('initial_appointment_exists'));
    await flush();
    expect(actor.getSnapshot().hasTag('alreadyBooked')).toBe(true);
    actor.stop();
  });
});

describe('reschedule machine', () => {
  // Clara is not free at the last slot: the reschedule's slot list names Otto there.
  const OTTO = { id: '22222222-2222-4222-8222-222222222222', firstName: 'Otto', lastName: 'Other' };
  const MOVE_SLOTS = [SLOTS[0]!, SLOTS[1]!, { ...SLOTS[2]!, coachId: OTTO.id, coach: OTTO }];
  const later = appointment({ startDate: '2027-03-30T09:00:00Z', endDate: '2027-03-30T09:30:00Z' });
  const moved = appointment({
    startDate: MOVE_SLOTS[2]!.startDate,
    endDate: MOVE_SLOTS[2]!.endDate,
    coach: OTTO,
  });
  const events: AnyEventObject[] = [
    done('loadReschedule', { appointment: later, slots: MOVE_SLOTS }),
    done('loadReschedule', {
      appointment: appointment({ cancelledAt: '2027-03-21T09:00:00Z' }),
      slots: MOVE_SLOTS,
    }),
    done('loadReschedule', {
      appointment: appointment({ startDate: '2027-03-22T08:00:00Z' }),
      slots: MOVE_SLOTS,
    }),
    failed('loadReschedule', apiError('not_found')),
    failed('loadReschedule', NETWORK),
    { type: 'retry' },
    done('slotPicker', { outcome: 'submitted', slot: MOVE_SLOTS[2], result: moved }),
    done('slotPicker', { outcome: 'ended', code: 'notice_period' }),
    done('slotPicker', { outcome: 'ended', code: 'appointment_cancelled' }),
    done('slotPicker', { outcome: 'ended', code: 'not_found' }),
  ];
  const input = { appointmentId: APPOINTMENT_ID, now: () => NOW };

  describeModel('model-based', {
    machine: rescheduleMachine,
    plans: [
      {
        input,
        events,
        serialize: (s) => ({
          error: s.context.error?.code ?? null,
          start: s.context.appointment?.startDate ?? null,
        }),
      },
    ],
    start: () => startMachine(rescheduleMachine, { input }),
    states: {
      'reschedule.loading': (_, r) =>
        expect(r.fakes.loadReschedule!.calls.at(-1)).toMatchObject({
          appointmentId: APPOINTMENT_ID,
          duration: 30,
        }),
      'reschedule.loadFailed': (s) => {
        expect(s.hasTag('error')).toBe(true);
        expect(s.can({ type: 'retry' })).toBe(true);
      },
      'reschedule.notFound': (s) => expect(s.can({ type: 'retry' })).toBe(false),
      // Cancelled before the page loaded, or meanwhile: nothing left to move.
      'reschedule.cancelled': (s) => {
        expect(s.can({ type: 'retry' })).toBe(false);
      },
      'reschedule.choosing': (s, r) => {
        expect(s.context.appointment).not.toBeNull();
        const picker = r.fakes.slotPicker!.latest().input as SlotPickerInput;
        // The picker starts with the slots loaded with the appointment, reloads this move's slots…
        expect(picker.slots).toEqual(MOVE_SLOTS);
        expect({ ...picker.query, ...picker.window(null) }).toEqual({
          duration: 30,
          rescheduleOf: APPOINTMENT_ID,
          ...slotWindow(NOW),
        });
        // …the confirmation names the coach the move gets, and the move asks for exactly that coach.
        expect(coachChange({ appointment: s.context.appointment, slot: MOVE_SLOTS[2]! })).toEqual({
          from: COACH,
          to: OTTO,
        });
        expect(
          picker.request!({ query: picker.query!, slot: MOVE_SLOTS[2]!, idempotencyKey: 'key-1' }),
        ).toEqual({
          appointmentId: APPOINTMENT_ID,
          startDate: MOVE_SLOTS[2]!.startDate,
          coachId: OTTO.id,
          idempotencyKey: 'key-1',
        });
      },
      'reschedule.moved': (s) => {
        expect(s.context.appointment?.startDate).toBe(MOVE_SLOTS[2]!.startDate);
        expect(s.context.appointment?.coach).toEqual(OTTO);
      },
      'reschedule.tooLate': (s) => expect(s.context.appointment).not.toBeNull(),
    },
  });
});

describe('cancel machine', () => {
  const view = (over: Partial<CancelView> = {}): CancelView => ({
    startDate: '2027-03-25T09:00:00Z',
    endDate: '2027-03-25T09:30:00Z',
    coachName: 'Clara Coach',
    cancelled: false,
    ...over,
  });
  const targets = [
    { kind: 'own', appointmentId: APPOINTMENT_ID } as const,
    { kind: 'code', code: 'abcd-efgh-jkmn' } as const,
  ];
  const events: AnyEventObject[] = [
    done('loadAppointment', view()),
    done('loadAppointment', view({ cancelled: true })),
    done('loadAppointment', view({ startDate: '2027-03-22T08:00:00Z' })),
    failed('loadAppointment', apiError('not_found')),
    failed('loadAppointment', NETWORK),
    { type: 'cancel.confirm' },
    { type: 'retry' },
    done('cancelAppointment', view({ cancelled: true })),
    failed('cancelAppointment', apiError('notice_period')),
    failed('cancelAppointment', apiError('appointment_cancelled')),
    failed('cancelAppointment', NETWORK),
  ];

  describeModel('model-based', {
    machine: cancelMachine,
    plans: targets.map((target) => ({
      name: target.kind,
      input: { target, now: () => NOW },
      events,
      serialize: (s) => ({ error: s.context.error?.code ?? null, a: s.context.appointment }),
    })),
    start: (plan) => startMachine(cancelMachine, { input: plan.input! }),
    states: {
      'cancelAppointment.loading': (s, r) =>
        expect(r.fakes.loadAppointment!.calls.at(-1)).toEqual(s.context.target),
      'cancelAppointment.loadFailed': (s) => {
        expect(s.hasTag('error')).toBe(true);
        expect(s.can({ type: 'retry' })).toBe(true);
      },
      'cancelAppointment.notFound': (s) => expect(s.can({ type: 'cancel.confirm' })).toBe(false),
      'cancelAppointment.alreadyCancelled': (s) =>
        expect(s.can({ type: 'cancel.confirm' })).toBe(false),
      'cancelAppointment.tooLate': (s) => expect(s.can({ type: 'cancel.confirm' })).toBe(false),
      'cancelAppointment.cancelling': (s, r) =>
        expect(r.fakes.cancelAppointment!.calls.at(-1)).toEqual(s.context.target),
      'cancelAppointment.confirming': (s) => expect(s.context.appointment?.cancelled).toBe(false),
      'cancelAppointment.cancelled': (s) => expect(s.context.appointment?.cancelled).toBe(true),
    },
    finish: (r, path) => {
      // Nothing is cancelled without the confirmation: one request per confirmation.
      expect(r.fakes.cancelAppointment!.calls.length).toBe(
        path.steps.filter((st) => st.event.type === 'cancel.confirm').length,
      );
    },
  });
});

describeModel('client appointments machine (Mein Termin), model-based', {
  machine: clientAppointmentsMachine,
  plans: [
    {
      events: [
        done('loadAppointments', [appointment()]),
        done('loadAppointments', []),
        failed('loadAppointments', NETWORK),
        { type: 'retry' },
      ],
      serialize: (s) => ({ n: s.context.appointments.length, e: s.context.error?.code ?? null }),
    },
  ],
  start: () => startMachine(clientAppointmentsMachine),
  states: {
    'clientAppointments.loading': (s) => expect(s.hasTag('busy')).toBe(true),
    'clientAppointments.upcoming': (s) =>
      expect(s.context.appointments[0]!.id).toBe(APPOINTMENT_ID),
    'clientAppointments.none': (s) => expect(s.context.appointments).toEqual([]),
    'clientAppointments.loadFailed': (s) => expect(s.context.error?.code).toBe('network'),
  },
});

describe('"Mein Termin" offers "Beitreten" while the server\'s room window is open', () => {
  it('joins from joinableFrom to joinableUntil and wakes itself when the room opens and closes', async () => {
    vi.useFakeTimers();
    try {
      let now = Date.parse('2027-03-25T08:49:00Z');
      const actor = createActor(
        clientAppointmentsMachine.provide({
          actors: { loadAppointments: fromPromise(async () => [appointment()]) },
        }),
        { input: { now: () => now } },
      ).start();
      await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('upcoming'));
      expect(actor.getSnapshot().context.joinable).toEqual([]);
      // One minute later the room opens: the machine woke by itself.
      expect(untilRoomChange(actor.getSnapshot().context.appointments, now)).toBe(60_000);
      now += 60_000;
      await vi.advanceTimersByTimeAsync(60_000);
      expect(actor.getSnapshot().context.joinable).toEqual([APPOINTMENT_ID]);
      // Closed after joinableUntil.
      now = Date.parse('2027-03-25T10:00:00Z') + 1;
      await vi.advanceTimersByTimeAsync(
        untilRoomChange(
          actor.getSnapshot().context.appointments,
          Date.parse('2027-03-25T08:50:00Z'),
        ),
      );
      expect(actor.getSnapshot().context.joinable).toEqual([]);
      actor.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('sleeps at most six hours when no room changes soon', () => {
    expect(untilRoomChange([appointment()], Date.parse('2027-03-01T00:00:00Z'))).toBe(
      6 * 3_600_000,
    );
    expect(untilRoomChange([appointment()], Date.parse('2027-03-26T00:00:00Z'))).toBe(
      6 * 3_600_000,
    );
  });
});
