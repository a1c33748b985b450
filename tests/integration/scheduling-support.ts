import { clients } from '../../server/db/schema/index';
import { holidayDuring } from '../../server/features/scheduling/index';
import type { Api } from '../support/api';
import { at, type Caller, expectStatus, newCoach, unique } from './fixtures';

/** A settable server clock for createApi({ now }). */
export function testClock(start: string) {
  let current = new Date(start);
  return {
    now: () => current,
    set(iso: string) {
      current = new Date(iso);
    },
  };
}

/** A coach with a weekly availability (Europe/Berlin wall time). */
export async function coachWithAvailability(
  api: Api,
  as: Caller,
  availability: Record<string, unknown>,
  coach: Record<string, unknown> = {},
) {
  const c = await newCoach(api, as, coach);
  const res = await api.call('POST', '/api/availability', {
    as,
    body: { coachId: c.id, ...availability },
  });
  expectStatus(res, 201);
  return { coach: c, availability: res.body };
}

/** A signed-in client: a NONE user linked to a new client record. */
export async function signInClient(api: Api) {
  const session = await api.signIn('NONE');
  const [row] = await api.database.db
    .insert(clients)
    .values({ firstName: 'Klara', lastName: `Klient-${unique('k')}`, userId: session.userId })
    .returning({ id: clients.id });
  return { ...session, clientId: row!.id };
}

export const startsOf = (body: { slots: Array<{ startDate: string }> }) =>
  body.slots.map((s) => s.startDate);

/** Slots of one coach's calendar. */
export function coachSlots(
  api: Api,
  as: Caller,
  calendarId: string,
  startDate: string,
  endDate: string,
  duration = 60,
) {
  return api.call('GET', `/api/admin/calendar/available_slots/${calendarId}`, {
    as,
    query: { startDate, endDate, duration },
  });
}

/**
 * `days` from today (as `at` counts them), moved on past public holidays of Berlin (the
 * tests' HOLIDAY_STATE), which offer no slot and refuse a move without a reason: for tests
 * on days relative to the real date that book or move within availability.
 */
export function clearOfHolidays(days: number): number {
  let d = days;
  while (holidayDuring('BE', Date.parse(at(d, 0)), Date.parse(at(d, 23, 59)))) d++;
  return d;
}
