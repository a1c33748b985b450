import type { Faker } from '@faker-js/faker';
import {
  CAMPAIGNS,
  CLIENT_NOTES,
  COACH_PLANS,
  DEMO_DOMAIN,
  DIAGNOSES,
  HOW_DID_YOU_HEAR,
  REJECTION_NOTES,
} from '../data';
import type { DemoData } from '../types';
import { planClient } from './appointment-plan';
import { appointmentsOf, meetingCodes, type Timeline } from './appointments';
import type { CoachCalendar } from './calendar';
import { DAY, iso } from './clock';
import type { Person } from './people';

/**
 * Each person becomes a client with a course of appointments: planned in the coaches'
 * calendars, signed up a few days before the Erstgespräch, and the client record as the
 * course left it (closed, rejected, contract unsigned, …). The first person is the demo client
 * and gets an account.
 */
export function clientsAndAppointments(
  f: Faker,
  fAccounts: Faker,
  t: Timeline,
  persons: readonly Person[],
  coachIds: readonly string[],
  calendars: readonly CoachCalendar[],
  out: DemoData,
) {
  const { clock, clampPast } = t;
  const campaignChoices = [
    ...CAMPAIGNS.filter((c) => c.weight > 0).map((c) => ({
      weight: c.weight,
      value: c.code as string | null,
    })),
    { weight: 35, value: null },
  ];
  const uniqueCode = meetingCodes();

  for (const [index, person] of persons.entries()) {
    const coachId = coachIds[index % COACH_PLANS.length]!;
    const plan = planClient(f, index, calendars);
    const { kind, planned, rejection, closedAfterDays } = plan;

    // Signed up during the day (Berlin), a few days before the Erstgespräch, never in the future.
    const signupDay =
      kind === 'new' || planned.length === 0
        ? -f.number.int({ min: kind === 'new' ? 0 : 1, max: 12 })
        : Math.min(0, planned[0]!.day - f.number.int({ min: 1, max: 10 }));
    const clientCreated = clampPast(
      clock.at(signupDay, f.number.int({ min: 7, max: 21 }), f.number.int({ min: 0, max: 59 })),
    );
    const booked = appointmentsOf(
      f,
      t,
      { id: person.id, index, created: clientCreated },
      plan,
      coachIds,
      uniqueCode,
      out,
    );
    let lastChange = booked.lastChange;

    const sessionsClosedOn =
      closedAfterDays !== null && booked.lastLiveEnd !== null
        ? clampPast(booked.lastLiveEnd + closedAfterDays * DAY)
        : null;
    const rejectedAt = rejection
      ? clampPast(Math.max(lastChange, clientCreated) + f.number.int({ min: 1, max: 5 }) * DAY)
      : null;
    lastChange = Math.max(lastChange, sessionsClosedOn ?? 0, rejectedAt ?? 0);

    const campaign = f.helpers.weightedArrayElement(campaignChoices);
    const sponsored = CAMPAIGNS.find((c) => c.code === campaign)?.sponsored ?? false;
    const hasDiagnosis = f.datatype.boolean({ probability: 0.85 });
    const unsigned =
      (kind === 'new' || kind === 'active') && f.datatype.boolean({ probability: 0.1 });
    const demoClient = index === 0;
    out.clients.push({
      id: person.id,
      firstName: person.firstName,
      lastName: person.lastName,
      email: demoClient ? `klient@${DEMO_DOMAIN}` : person.email,
      yearOfBirth: person.yearOfBirth,
      street: person.street,
      city: person.city,
      postalCode: person.postalCode,
      country: 'DE',
      telephone:
        person.relative && !person.telephone ? person.relative.telephone : person.telephone,
      additionalTelephoneNumbers: person.additionalTelephoneNumbers,
      hasNotSignedRequiredContract: unsigned,
      contractReminderSentAt:
        unsigned && f.datatype.boolean({ probability: 0.5 })
          ? iso(clampPast(clientCreated + 2 * DAY))
          : null,
      rejectionReasonType: rejection,
      rejectionReasonNotes: rejection ? REJECTION_NOTES[rejection]! : null,
      insurer: person.insurer,
      insurerCode: person.insurerCode,
      campaign,
      clientType: person.relative ? 'relative' : 'self',
      contactPerson: person.relative,
      howDidYouHearAboutUs: f.helpers.arrayElement(HOW_DID_YOU_HEAR),
      diagnosis: hasDiagnosis ? f.helpers.arrayElement(DIAGNOSES) : null,
      initialDiagnosis: hasDiagnosis
        ? clock.date(-f.number.int({ min: 60, max: 3650 })).toString()
        : null,
      mentalStressIndicator: f.number.int({ min: 0, max: 10 }),
      paidBySponsor: sponsored,
      wantsToProvideRecordingsForResearch: f.datatype.boolean({ probability: 0.25 }),
      notifyViaSms: f.datatype.boolean({ probability: 0.8 }),
      notes: f.datatype.boolean({ probability: 0.3 }) ? f.helpers.arrayElement(CLIENT_NOTES) : null,
      sessionsClosedOn: sessionsClosedOn === null ? null : iso(sessionsClosedOn),
      coachedById: coachId,
      existingClientOfCoachId: f.datatype.boolean({ probability: 0.04 }) ? coachId : null,
      createdAt: iso(clientCreated),
      updatedAt: iso(lastChange),
    });

    if (demoClient) demoClientAccount(fAccounts, clientCreated, out);
  }
}

/** The demo client's sign-in account, linked to the first client. */
function demoClientAccount(f: Faker, created: number, out: DemoData) {
  const at = iso(created);
  const client = out.clients[0]!;
  out.users.push({
    id: f.string.uuid(),
    email: `klient@${DEMO_DOMAIN}`,
    role: 'NONE',
    active: true,
    activatedAt: at,
    createdAt: at,
    updatedAt: at,
  });
  client.userId = out.users.at(-1)!.id!;
  out.accounts.push({
    role: 'NONE',
    email: `klient@${DEMO_DOMAIN}`,
    name: `Klient:in: ${client.firstName} ${client.lastName}`,
  });
}
