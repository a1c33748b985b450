import { Faker, base, de, en } from '@faker-js/faker';
import { Temporal } from '@js-temporal/polyfill';
import { newMeetingCode, newVideoRoom } from '../features/appointments/index';
import type { APPOINTMENT_TYPES, REJECTION_REASONS } from '../../shared/contract/enums';
import { holidayDuring } from '../features/scheduling/index';
import type {
  appointments,
  campaigns,
  clients,
  coaches,
  insurers,
  users,
} from '../db/schema/index';
import {
  CAMPAIGNS,
  CITIES,
  CLIENT_NOTES,
  COACH_PLANS,
  CAMPAIGN_ADDRESSES,
  DEMO_DOMAIN,
  INSURER_ADDRESSES,
  DIAGNOSES,
  DURATIONS,
  HOW_DID_YOU_HEAR,
  INSURERS,
  MOBILE_PREFIXES,
  REJECTION_NOTES,
  STAFF,
  WEEKDAYS,
  type Weekday,
} from './data';

/** Fixed seeds: the same people, addresses and plans every time. */
export const SEED_NUMBER = 20_260_401;
export const CLIENT_COUNT = 200;
const ZONE = 'Europe/Berlin';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

type AppointmentType = (typeof APPOINTMENT_TYPES)[number];
type RejectionReason = (typeof REJECTION_REASONS)[number];
type Role = (typeof users.$inferInsert)['role'] & string;

/** A weekly availability block of one coach, for the availability area's table. */
export interface AvailabilityPlan {
  id: string;
  coachId: string;
  kind: 'available';
  /** First day (DTSTART date): the first of the rule's weekdays before the first appointment. */
  startDay: string;
  startTime: string;
  endTime: string;
  /** UTC start of the first occurrence (DTSTART in Europe/Berlin). */
  seriesStart: string;
  /** RFC 5545 RRULE without the prefix, e.g. FREQ=WEEKLY;BYDAY=MO,WE. */
  recurrence: string;
  note: string | null;
}

/** A billing rule, for the billing-rules area's table; unset criteria match everything. */
export interface BillingRulePlan {
  id: string;
  name: string;
  position: number;
  appointmentType: AppointmentType | null;
  insurer: string | null;
  campaign: string | null;
  sponsorPays?: boolean;
  noShow?: boolean;
  cancelledLate?: boolean;
  amountCents: number;
  description: string;
  /** Default standard (19 %); exempt names its legal reason. */
  vatTreatment?: 'standard' | 'exempt';
  vatExemptionReason?: string;
  /** Default client. */
  payerKind?: 'client' | 'sponsor' | 'statutory_insurer' | 'private_insurer';
  active: boolean;
}

export interface DemoAccount {
  role: Role;
  email: string;
  name: string;
}

export interface DemoData {
  users: (typeof users.$inferInsert)[];
  coaches: (typeof coaches.$inferInsert)[];
  insurers: (typeof insurers.$inferInsert)[];
  campaigns: (typeof campaigns.$inferInsert)[];
  clients: (typeof clients.$inferInsert)[];
  appointments: (typeof appointments.$inferInsert)[];
  availability: AvailabilityPlan[];
  billingRules: BillingRulePlan[];
  accounts: DemoAccount[];
}

// ---------------------------------------------------------------------------------------
// Small German helpers.

/** An e-mail local part from a German name: Jürgen Weiß → juergen.weiss */
export function emailLocalPart(...parts: string[]): string {
  return parts
    .join('.')
    .toLowerCase()
    .replace(/ä/g, 'ae')
    .replace(/ö/g, 'oe')
    .replace(/ü/g, 'ue')
    .replace(/ß/g, 'ss')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9.-]+/g, '')
    .replace(/\.{2,}/g, '.')
    .replace(/^\.|\.$/g, '');
}

/** Krankenversichertennummer: a letter, eight digits and the check digit (§ 290 SGB V). */
export function insuranceNumber(letter: string, eightDigits: string): string {
  const digits = String(letter.charCodeAt(0) - 64).padStart(2, '0') + eightDigits;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    const p = Number(digits[i]) * (i % 2 === 0 ? 1 : 2);
    sum += p > 9 ? p - 9 : p;
  }
  return `${letter}${eightDigits}${sum % 10}`;
}

function mobileNumber(f: Faker): string {
  const prefix = f.helpers.arrayElement(MOBILE_PREFIXES);
  const rest = f.string.numeric({
    length: f.number.int({ min: 7, max: 8 }),
    allowLeadingZeros: false,
  });
  return f.helpers.weightedArrayElement([
    { weight: 5, value: `0${prefix} ${rest}` },
    { weight: 2, value: `+49 ${prefix} ${rest}` },
    { weight: 2, value: `0${prefix}/${rest}` },
    { weight: 1, value: `0${prefix}-${rest.slice(0, 3)} ${rest.slice(3)}` },
  ]);
}

function landlineNumber(f: Faker, areaCode: string): string {
  const rest = f.string.numeric({ length: 11 - areaCode.length, allowLeadingZeros: false });
  return f.helpers.weightedArrayElement([
    { weight: 5, value: `${areaCode} ${rest}` },
    { weight: 2, value: `(${areaCode}) ${rest}` },
    { weight: 2, value: `+49 ${areaCode.slice(1)} ${rest}` },
    { weight: 1, value: `${areaCode}/${rest}` },
  ]);
}

// ---------------------------------------------------------------------------------------
// Time: day offsets relative to the seed day, wall-clock hours in Europe/Berlin.

class DemoClock {
  readonly today: Temporal.PlainDate;
  private offsets = new Map<number, number>();

  constructor(readonly now: Date) {
    this.today = Temporal.Instant.fromEpochMilliseconds(now.getTime())
      .toZonedDateTimeISO(ZONE)
      .toPlainDate();
  }

  private dates = new Map<number, Temporal.PlainDate>();

  date(day: number): Temporal.PlainDate {
    let d = this.dates.get(day);
    if (!d) this.dates.set(day, (d = this.today.add({ days: day })));
    return d;
  }

  weekday(day: number): Weekday {
    return WEEKDAYS[(((this.today.dayOfWeek - 1 + day) % 7) + 7) % 7]!;
  }

  /**
   * Epoch milliseconds of a Berlin wall-clock time on a day. The zone offset is taken at
   * noon of that day: daytime hours never straddle the 2–3 am switch of summer time.
   */
  at(day: number, hour: number, minute = 0): number {
    let offset = this.offsets.get(day);
    const d = this.date(day);
    if (offset === undefined) {
      offset =
        d.toZonedDateTime({ timeZone: ZONE, plainTime: new Temporal.PlainTime(12) })
          .offsetNanoseconds / 1e6;
      this.offsets.set(day, offset);
    }
    return Date.UTC(d.year, d.month - 1, d.day, hour, minute) - offset;
  }
}

const iso = (ms: number) => new Date(ms).toISOString();

/** One coach's week grid: one-hour slots inside the coach's hours, each used at most once. */
class CoachCalendar {
  private used = new Set<string>();
  readonly count = { placed: 0 };

  constructor(
    private plan: (typeof COACH_PLANS)[number],
    private clock: DemoClock,
    private f: Faker,
    private holidayState: string,
  ) {}

  private hoursOn(day: number): number[] {
    // A practice is closed on public holidays: the demo books none, as the pickers offer none.
    const noon = this.clock.at(day, 12);
    if (holidayDuring(this.holidayState, noon, noon + 1)) return [];
    const weekday = this.clock.weekday(day);
    const hours: number[] = [];
    for (const block of this.plan.blocks) {
      if (!block.days.includes(weekday)) continue;
      for (let h = block.start; h < block.end; h++) hours.push(h);
    }
    return hours;
  }

  /** The first free slot on `fromDay` or the days after it. */
  place(fromDay: number): { day: number; hour: number } {
    for (let day = fromDay; day < fromDay + 120; day++) {
      const hours = this.hoursOn(day);
      if (hours.length === 0) continue;
      for (const hour of this.f.helpers.shuffle(hours)) {
        const key = `${day}:${hour}`;
        if (this.used.has(key)) continue;
        this.used.add(key);
        this.count.placed++;
        return { day, hour };
      }
    }
    throw new Error('demo calendar is full');
  }
}

// ---------------------------------------------------------------------------------------

type Kind = 'active' | 'closed' | 'rejected' | 'new' | 'unbooked';

interface Person {
  id: string;
  sex: 'female' | 'male';
  firstName: string;
  lastName: string;
  email: string | null;
  yearOfBirth: number;
  street: string;
  postalCode: string;
  city: string;
  telephone: string | null;
  additionalTelephoneNumbers: string | null;
  insurer: string;
  insurerCode: string;
  relative: {
    firstName: string;
    lastName: string;
    email: string | null;
    telephone: string | null;
  } | null;
}

function newFaker(seed: number): Faker {
  const f = new Faker({ locale: [de, en, base] });
  f.seed(seed);
  return f;
}

/** The people first, from their own generator: names stay the same whatever the date. */
function people(f: Faker, count: number): Person[] {
  const emails = new Set<string>();
  const uniqueEmail = (local: string, domain: string) => {
    let candidate = `${local}@${domain}`;
    for (let n = 2; emails.has(candidate); n++) candidate = `${local}${n}@${domain}`;
    emails.add(candidate);
    return candidate;
  };
  const domains = ['example.com', 'example.org', 'example.net'];
  const insurerChoices = INSURERS.map((i) => ({ weight: i.weight, value: i.name }));
  const cityChoices = CITIES.map((c) => ({ weight: c.weight, value: c }));

  return Array.from({ length: count }, () => {
    const sex = f.helpers.arrayElement(['female', 'male'] as const);
    const firstName = f.person.firstName(sex);
    const lastName = f.person.lastName();
    const city = f.helpers.weightedArrayElement(cityChoices);
    const mobile = mobileNumber(f);
    const landline = landlineNumber(f, city.areaCode);
    const phoneStyle = f.helpers.weightedArrayElement([
      { weight: 6, value: 'mobile' },
      { weight: 2, value: 'landline' },
      { weight: 2, value: 'both' },
    ] as const);
    const isRelative = f.datatype.boolean({ probability: 0.12 });
    const relativeFirst = f.person.firstName();
    const relativeLast = f.datatype.boolean({ probability: 0.7 }) ? lastName : f.person.lastName();
    const emailStyle = f.helpers.arrayElement(['dot', 'initial', 'year'] as const);
    const yearOfBirth = f.number.int({ min: 1940, max: 2005 });
    const local =
      emailStyle === 'dot'
        ? emailLocalPart(firstName, lastName)
        : emailStyle === 'initial'
          ? emailLocalPart(firstName.slice(0, 1) + lastName)
          : emailLocalPart(firstName + lastName) + String(yearOfBirth).slice(2);
    const domain = f.helpers.arrayElement(domains);
    const hasEmail = !isRelative || f.datatype.boolean({ probability: 0.4 });
    const insurer = f.helpers.weightedArrayElement(insurerChoices);
    const insurerCode = insuranceNumber(
      f.string.alpha({ length: 1, casing: 'upper', exclude: ['Ä', 'Ö', 'Ü'] }),
      f.string.numeric({ length: 8 }),
    );
    const street = `${f.location.street()} ${f.location.buildingNumber()}`;
    const postalCode = String(f.number.int({ min: city.plz[0], max: city.plz[1] })).padStart(
      5,
      '0',
    );
    return {
      id: f.string.uuid(),
      sex,
      firstName,
      lastName,
      email: hasEmail ? uniqueEmail(local, domain) : null,
      yearOfBirth: isRelative
        ? Math.min(yearOfBirth, f.number.int({ min: 1935, max: 1955 }))
        : yearOfBirth,
      street,
      postalCode,
      city: city.name,
      telephone: phoneStyle === 'landline' ? landline : mobile,
      additionalTelephoneNumbers: phoneStyle === 'both' ? landline : null,
      insurer,
      insurerCode,
      relative: isRelative
        ? {
            firstName: relativeFirst,
            lastName: relativeLast,
            email: uniqueEmail(
              emailLocalPart(relativeFirst, relativeLast),
              f.helpers.arrayElement(domains),
            ),
            telephone: mobileNumber(f),
          }
        : null,
    };
  });
}

export interface GenerateOptions {
  /** The moment the data is seeded: appointments lie before and after it. */
  now?: Date;
  clientCount?: number;
  /** The practice's federal state (HOLIDAY_STATE): no demo appointment falls on its holidays. */
  holidayState?: string;
}

/** Builds the whole demo data set in memory; only meeting codes and video rooms are random. */
export function generateDemoData({
  now = new Date(),
  clientCount = CLIENT_COUNT,
  holidayState = 'BE',
}: GenerateOptions = {}): DemoData {
  const fPeople = newFaker(SEED_NUMBER);
  const fPlan = newFaker(SEED_NUMBER + 1);
  const clock = new DemoClock(now);
  const nowMs = now.getTime();
  const clampPast = (ms: number) => Math.min(ms, nowMs - 60_000);
  const setupDay = clock.at(-120, 9);

  // Staff and coaches -------------------------------------------------------------------
  const out: DemoData = {
    users: [],
    coaches: [],
    insurers: [],
    campaigns: [],
    clients: [],
    appointments: [],
    availability: [],
    billingRules: [],
    accounts: [],
  };

  for (const [i, staff] of STAFF.entries()) {
    const email = `${staff.key}@${DEMO_DOMAIN}`;
    const at = iso(setupDay + i * 60_000);
    out.users.push({
      id: fPeople.string.uuid(),
      email,
      role: staff.role,
      active: true,
      activatedAt: at,
      createdAt: at,
      updatedAt: at,
    });
    out.accounts.push({ role: staff.role, email, name: staff.label });
  }

  const coachIds: string[] = [];
  const calendars: CoachCalendar[] = [];
  for (const [i, plan] of COACH_PLANS.entries()) {
    const n = i + 1;
    const email = `coach${n}@${DEMO_DOMAIN}`;
    const firstName = fPeople.person.firstName(plan.sex);
    const lastName = fPeople.person.lastName();
    const at = iso(setupDay + (10 + i) * 60_000);
    const id = fPeople.string.uuid();
    coachIds.push(id);
    calendars.push(new CoachCalendar(plan, clock, fPlan, holidayState));
    out.coaches.push({
      id,
      firstName,
      lastName,
      email,
      telephone: `+49 30 ${fPeople.string.numeric({ length: 7, allowLeadingZeros: false })}`,
      title: plan.title,
      takesInitialAppointments: plan.takesInitialAppointments,
      active: true,
      createdAt: at,
      updatedAt: at,
    });
    out.users.push({
      id: fPeople.string.uuid(),
      email,
      role: 'COACH',
      active: true,
      coachId: id,
      activatedAt: at,
      createdAt: at,
      updatedAt: at,
    });
    const name = [plan.title, firstName, lastName].filter(Boolean).join(' ');
    out.accounts.push({ role: 'COACH', email, name: `Coach ${n}: ${name}` });
  }

  // Catalogue ----------------------------------------------------------------------------
  for (const insurer of INSURERS) {
    out.insurers.push({
      id: fPeople.string.uuid(),
      name: insurer.name,
      ikNumber: insurer.ikNumber,
      active: true,
      ...INSURER_ADDRESSES[insurer.name],
      invoiceEmail: `rechnung-${insurer.ikNumber}@kassen.${DEMO_DOMAIN}`,
    });
  }
  for (const c of CAMPAIGNS) {
    out.campaigns.push({
      id: fPeople.string.uuid(),
      code: c.code,
      name: c.name,
      description: c.description,
      active: c.active,
      startsAt: c.startsAt,
      endsAt: c.endsAt,
      ...CAMPAIGN_ADDRESSES[c.code],
      invoiceEmail: `rechnung-${c.code}@sponsoren.${DEMO_DOMAIN}`,
    });
  }

  // Weekly availability, open-ended, from the week before the earliest appointment. DTSTART
  // falls on one of the rule's own weekdays (RFC 5545: otherwise the set is undefined).
  const windowStart = -84 - (clock.date(-84).dayOfWeek - 1);
  const hh = (h: number) => `${String(h).padStart(2, '0')}:00`;
  for (const [i, plan] of COACH_PLANS.entries()) {
    for (const block of plan.blocks) {
      let first = windowStart;
      while (!block.days.includes(clock.weekday(first))) first++;
      out.availability.push({
        id: fPeople.string.uuid(),
        coachId: coachIds[i]!,
        kind: 'available',
        startDay: clock.date(first).toString(),
        startTime: hh(block.start),
        endTime: hh(block.end),
        seriesStart: iso(clock.at(first, block.start)),
        recurrence: `FREQ=WEEKLY;INTERVAL=1;BYDAY=${block.days.join(',')};WKST=MO`,
        note: null,
      });
    }
  }

  out.billingRules = billingRules(fPeople);

  // Clients and their appointments ----------------------------------------------------------
  const persons = people(fPeople, clientCount);
  const campaignChoices = [
    ...CAMPAIGNS.filter((c) => c.weight > 0).map((c) => ({
      weight: c.weight,
      value: c.code as string | null,
    })),
    { weight: 35, value: null },
  ];
  // Meeting codes and video rooms come from the operating system's randomness (the same
  // generator the app uses), never from the seeded faker: demo codes are not guessable.
  const meetingCodes = new Set<string>();
  const uniqueCode = () => {
    let code = newMeetingCode();
    while (meetingCodes.has(code)) code = newMeetingCode();
    meetingCodes.add(code);
    return code;
  };

  for (const [index, person] of persons.entries()) {
    const f = fPlan;
    const coachIndex = index % COACH_PLANS.length;
    const coachId = coachIds[coachIndex]!;
    // The demo client (index 0) has a future Erstgespräch to cancel or reschedule.
    const kind: Kind =
      index === 0
        ? 'new'
        : f.helpers.weightedArrayElement([
            { weight: 60, value: 'active' },
            { weight: 12, value: 'closed' },
            { weight: 9, value: 'rejected' },
            { weight: 13, value: 'new' },
            { weight: 6, value: 'unbooked' },
          ] as const);

    // The appointment plan: [type, earliest day offset]; actual days come from the calendar.
    type Planned = { type: AppointmentType; day: number; hour: number; coach: number };
    const planned: Planned[] = [];
    const book = (type: AppointmentType, fromDay: number, coach = coachIndex) => {
      const slot = calendars[coach]!.place(fromDay);
      planned.push({ type, ...slot, coach });
      return slot.day;
    };
    // Coaches who take no initial appointments get their clients after someone else's Erstgespräch.
    const initialCoach = COACH_PLANS[coachIndex]!.takesInitialAppointments
      ? coachIndex
      : (coachIndex + 1) % COACH_PLANS.length;

    let rejection: RejectionReason | null = null;
    let closedAfterDays: number | null = null;
    if (kind === 'active') {
      let day = book('initial', f.number.int({ min: -63, max: -10 }), initialCoach);
      day = book('first', day + f.number.int({ min: 5, max: 9 }));
      if (f.datatype.boolean({ probability: 0.15 }))
        day = book('first-arztkonsultation', day + f.number.int({ min: 2, max: 5 }));
      if (f.datatype.boolean({ probability: 0.05 }))
        day = book('adhoc', day + f.number.int({ min: 1, max: 3 }));
      const horizon = f.number.int({ min: 3, max: 24 });
      const consultAt = f.datatype.boolean({ probability: 0.1 })
        ? f.number.int({ min: 1, max: 3 })
        : -1;
      for (let n = 0; n === 0 || day < horizon; n++) {
        day = book(
          n === consultAt ? 'followup-arztkonsultation' : 'followup',
          day + f.number.int({ min: 7, max: 14 }),
        );
      }
    } else if (kind === 'closed') {
      let day = book('initial', f.number.int({ min: -75, max: -50 }), initialCoach);
      day = book('first', day + f.number.int({ min: 5, max: 9 }));
      const followups = f.number.int({ min: 2, max: 4 });
      for (let n = 0; n < followups; n++)
        day = book('followup', day + f.number.int({ min: 6, max: 9 }));
      closedAfterDays = f.number.int({ min: 1, max: 4 });
    } else if (kind === 'rejected') {
      rejection = f.helpers.weightedArrayElement([
        { weight: 3, value: 'not_reachable' },
        { weight: 2, value: 'not_eligible' },
        { weight: 3, value: 'no_interest' },
        { weight: 2, value: 'declined_contract' },
        { weight: 1, value: 'other' },
      ] as const);
      if (rejection !== 'not_reachable') {
        const day = book('initial', f.number.int({ min: -50, max: -3 }), initialCoach);
        if (rejection === 'declined_contract')
          book('first', day + f.number.int({ min: 4, max: 8 }));
      }
    } else if (kind === 'new') {
      book('initial', f.number.int({ min: 1, max: 14 }), initialCoach);
    }

    // Times, flags and bookkeeping, in the order the appointments happen.
    // Signed up during the day (Berlin), a few days before the Erstgespräch, never in the future.
    const signupDay =
      kind === 'new' || planned.length === 0
        ? -f.number.int({ min: kind === 'new' ? 0 : 1, max: 12 })
        : Math.min(0, planned[0]!.day - f.number.int({ min: 1, max: 10 }));
    const clientCreated = clampPast(
      clock.at(signupDay, f.number.int({ min: 7, max: 21 }), f.number.int({ min: 0, max: 59 })),
    );
    let lastChange = clientCreated;
    let previousCreated = clientCreated;
    let previousEnd = clientCreated;
    let lastLiveEnd: number | null = null;
    for (const [i, p] of planned.entries()) {
      const start = clock.at(p.day, p.hour);
      const end = start + DURATIONS[p.type] * 60_000;
      // Booked at sign-up, later ones right after the previous appointment; appointments
      // after a future one were booked together with it.
      const created =
        i === 0
          ? Math.max(clientCreated, clampPast(clientCreated + 5 * 60_000))
          : previousEnd <= nowMs
            ? Math.max(previousCreated, clampPast(previousEnd + 15 * 60_000))
            : previousCreated;
      const past = end <= nowMs;
      const cancelled = index !== 0 && f.datatype.boolean({ probability: 0.06 });
      const cancelledAt = cancelled
        ? Math.round(
            created +
              Math.max(0, clampPast(start - HOUR) - created) *
                f.number.float({ min: 0.3, max: 0.95 }),
          )
        : null;
      const noShow = !cancelled && past && f.datatype.boolean({ probability: 0.05 });
      const provisional =
        kind === 'new' && index !== 0 && !cancelled && f.datatype.boolean({ probability: 0.3 });
      const consult = p.type.endsWith('arztkonsultation');
      out.appointments.push({
        id: f.string.uuid(),
        clientId: person.id,
        coachId: coachIds[p.coach]!,
        startDate: iso(start),
        endDate: iso(end),
        appointmentType: p.type,
        meetingType: consult ? 'arztkonsultation' : 'jitsi',
        meetingCodeCoach: uniqueCode(),
        meetingCodeClient: uniqueCode(),
        videoRoom: newVideoRoom(),
        appointmentNumber: i + 1,
        isProvisional: provisional,
        provisionalUntil: provisional
          ? iso(nowMs + f.number.int({ min: 12, max: 48 }) * HOUR)
          : null,
        noShow,
        cancelledAt: cancelledAt === null ? null : iso(cancelledAt),
        createdAt: iso(created),
        updatedAt: iso(Math.max(created, clampPast(cancelledAt ?? (past ? end : created)))),
      });
      previousCreated = created;
      previousEnd = end;
      if (!cancelled) lastLiveEnd = end;
      lastChange = Math.max(lastChange, clampPast(cancelledAt ?? (past ? end : created)));
    }

    const sessionsClosedOn =
      closedAfterDays !== null && lastLiveEnd !== null
        ? clampPast(lastLiveEnd + closedAfterDays * DAY)
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

    if (demoClient) {
      const at = iso(clientCreated);
      out.users.push({
        id: fPeople.string.uuid(),
        email: `klient@${DEMO_DOMAIN}`,
        role: 'NONE',
        active: true,
        activatedAt: at,
        createdAt: at,
        updatedAt: at,
      });
      out.clients[0]!.userId = out.users.at(-1)!.id!;
      out.accounts.push({
        role: 'NONE',
        email: `klient@${DEMO_DOMAIN}`,
        name: `Klient:in: ${person.firstName} ${person.lastName}`,
      });
    }
  }

  return out;
}

/** The exemption text of the consultations (to be confirmed by the practice's tax adviser). */
const HEILBEHANDLUNG = 'Steuerfreie Heilbehandlung gem. § 4 Nr. 14 a UStG';

function billingRules(f: Faker): BillingRulePlan[] {
  const rules: Omit<BillingRulePlan, 'id' | 'position'>[] = [
    // Outcome rules first: a no-show or a late cancellation is billed as a flat fee, not
    // as the appointment's type would be.
    {
      name: 'Nicht erschienen',
      appointmentType: null,
      insurer: null,
      campaign: null,
      noShow: true,
      amountCents: 3_000,
      description: 'Ausfallgebühr: Termin nicht wahrgenommen.',
      active: true,
    },
    {
      name: 'Kurzfristig abgesagt',
      appointmentType: null,
      insurer: null,
      campaign: null,
      cancelledLate: true,
      amountCents: 2_500,
      description: 'Ausfallgebühr: Absage weniger als 24 Stunden vor dem Termin.',
      active: true,
    },
    {
      name: 'Betrieb gesund: Ersttermin',
      appointmentType: 'first',
      insurer: null,
      campaign: 'betrieb-gesund',
      sponsorPays: true,
      amountCents: 11_000,
      description: 'Pauschale des Arbeitgebers für den Ersttermin.',
      payerKind: 'sponsor',
      active: true,
    },
    {
      name: 'Betrieb gesund: Folgetermin',
      appointmentType: 'followup',
      insurer: null,
      campaign: 'betrieb-gesund',
      sponsorPays: true,
      amountCents: 7_500,
      description: 'Pauschale des Arbeitgebers je Folgetermin.',
      payerKind: 'sponsor',
      active: true,
    },
    {
      name: 'AOK Bayern: Folgetermin',
      appointmentType: 'followup',
      insurer: 'AOK Bayern',
      campaign: null,
      amountCents: 7_000,
      description: 'Selektivvertrag mit der AOK Bayern.',
      payerKind: 'statutory_insurer',
      active: true,
    },
    {
      name: 'Erstgespräch',
      appointmentType: 'initial',
      insurer: null,
      campaign: null,
      amountCents: 0,
      description: 'Das Erstgespräch ist kostenfrei.',
      active: true,
    },
    {
      name: 'Ersttermin',
      appointmentType: 'first',
      insurer: null,
      campaign: null,
      amountCents: 9_500,
      description: 'Ersttermin, 60 Minuten.',
      active: true,
    },
    {
      name: 'Folgetermin',
      appointmentType: 'followup',
      insurer: null,
      campaign: null,
      amountCents: 6_500,
      description: 'Folgetermin, 50 Minuten.',
      active: true,
    },
    {
      name: 'Ärztliche Erstkonsultation',
      appointmentType: 'first-arztkonsultation',
      insurer: null,
      campaign: null,
      amountCents: 4_500,
      description: 'Ärztliche Konsultation, 30 Minuten.',
      vatTreatment: 'exempt',
      vatExemptionReason: HEILBEHANDLUNG,
      active: true,
    },
    {
      name: 'Ärztliche Folgekonsultation',
      appointmentType: 'followup-arztkonsultation',
      insurer: null,
      campaign: null,
      amountCents: 3_500,
      description: 'Ärztliche Konsultation, 30 Minuten.',
      vatTreatment: 'exempt',
      vatExemptionReason: HEILBEHANDLUNG,
      active: true,
    },
    {
      name: 'Ad-hoc-Termin',
      appointmentType: 'adhoc',
      insurer: null,
      campaign: null,
      amountCents: 2_500,
      description: 'Kurzer Ad-hoc-Termin.',
      active: true,
    },
    {
      name: 'Herbstaktion 2025 (beendet)',
      appointmentType: null,
      insurer: null,
      campaign: 'herbst-2025',
      amountCents: 5_000,
      description: 'Nicht mehr aktiv.',
      active: false,
    },
  ];
  return rules.map((r, position) => ({ id: f.string.uuid(), position, ...r }));
}
