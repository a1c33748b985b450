import { COACH_PLANS } from './data';
import { weeklyAvailability } from './steps/availability';
import { billingRules } from './steps/billing-rules';
import { CoachCalendar } from './steps/calendar';
import { catalogue } from './steps/catalogue';
import { clientsAndAppointments } from './steps/clients';
import { DemoClock } from './steps/clock';
import { newFaker, people } from './steps/people';
import { staffAndCoaches } from './steps/staff';
import type { DemoData } from './types';

export { emailLocalPart, insuranceNumber } from './steps/german';
export type { AvailabilityPlan, BillingRulePlan, DemoAccount, DemoData } from './types';

/** Fixed seeds: the same people, addresses and plans every time. */
export const SEED_NUMBER = 20_260_401;
export const CLIENT_COUNT = 200;

export interface GenerateOptions {
  /** The moment the data is seeded: appointments lie before and after it. */
  now?: Date;
  clientCount?: number;
  /** The practice's federal state (HOLIDAY_STATE): no demo appointment falls on its holidays. */
  holidayState?: string;
}

/**
 * Builds the whole demo data set in memory; only meeting codes and video rooms are random.
 * One step per kind of data, in a fixed order: each step draws from the two seeded
 * generators in turn, so reordering them changes every name and date after.
 */
export function generateDemoData({
  now = new Date(),
  clientCount = CLIENT_COUNT,
  holidayState = 'BE',
}: GenerateOptions = {}): DemoData {
  const fPeople = newFaker(SEED_NUMBER);
  const fPlan = newFaker(SEED_NUMBER + 1);
  const clock = new DemoClock(now);
  const nowMs = now.getTime();
  const timeline = { nowMs, clock, clampPast: (ms: number) => Math.min(ms, nowMs - 60_000) };
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

  const coachIds = staffAndCoaches(fPeople, clock.at(-120, 9), out);
  const calendars = COACH_PLANS.map((plan) => new CoachCalendar(plan, clock, fPlan, holidayState));
  catalogue(fPeople, out);
  out.availability = weeklyAvailability(fPeople, clock, coachIds);
  out.billingRules = billingRules(fPeople);
  const persons = people(fPeople, clientCount);
  clientsAndAppointments(fPlan, fPeople, timeline, persons, coachIds, calendars, out);
  return out;
}
