/**
 * The rules of a staff move (a new start, end or coach), the same as a booking's:
 * the new start lies in the future, the new time in the coach's free availability and on no
 * public holiday of the practice's state unless a staff member overrides that with a reason, and it overlaps no live appointment of the coach
 * (./booking.ts bookRange, which every move goes through).
 */
import { Temporal } from '@js-temporal/polyfill';
import { instant, instantOf } from '../../time';
import type { Tx } from '../../db/client';
import type { AppDeps } from '../../http/handler';
import { badRequest, conflict } from '../../http/problem';
import { coachFreeFor, holidayDuring } from '../scheduling/index';

export interface Move {
  appointmentId: string;
  coachId: string;
  startDate: string;
  endDate: string;
  /** availabilityOverrideReason of the request, if any. */
  overrideReason?: string | undefined;
}

interface Placement {
  coachId: string;
  startDate: string;
  endDate: string;
}

const sameInstant = (a: string, b: string) => instant(a).equals(instant(b));

/** Whether the change places the appointment elsewhere: another start, end or coach. */
export const isMove = (before: Placement, after: Placement) =>
  before.coachId !== after.coachId ||
  !sameInstant(before.startDate, after.startDate) ||
  !sameInstant(before.endDate, after.endDate);

/** What the request alone decides, before any lock: a blank reason, a start in the past. */
export function assertMoveRequest(deps: Pick<AppDeps, 'now'>, move: Move | null, reason?: string) {
  if (reason !== undefined && reason.trim() === '') {
    throw badRequest(
      'availabilityOverrideReason',
      'value_missing',
      'Say why the appointment may leave the availability or fall on a public holiday',
    );
  }
  const now = instantOf(deps.now());
  if (move && Temporal.Instant.compare(instant(move.startDate), now) <= 0) {
    // Recording a past session is not a move: nobody would be told of it rightly.
    throw badRequest(
      'startDate',
      'start_in_past',
      'An appointment can only be moved into the future',
    );
  }
}

/** What an override was needed for: the reason, and the holiday it books, if any. */
export interface Override {
  reason: string;
  holiday?: { date: string; name: string };
}

const holidayConflict = (holiday: { date: string; name: string }) =>
  conflict(
    'public_holiday',
    `${holiday.date} is a public holiday (${holiday.name}); staff may override with availabilityOverrideReason`,
  );

/**
 * A staff booking (not a move) touching a public holiday of `holidayState`: 409
 * public_holiday unless a reason is given. Bookings are otherwise free of the availability,
 * and a past session being recorded took place whatever the calendar said, so only future
 * bookings are checked. Returns the override to record, or null.
 */
export function assertHolidayBooking(
  deps: Pick<AppDeps, 'now'>,
  holidayState: string,
  booking: { startDate: string; endDate: string; overrideReason?: string | undefined },
): Override | null {
  const start = instant(booking.startDate);
  if (Temporal.Instant.compare(start, instantOf(deps.now())) <= 0) return null;
  const holiday = holidayDuring(
    holidayState,
    start.epochMilliseconds,
    instant(booking.endDate).epochMilliseconds,
  );
  if (!holiday) return null;
  const reason = booking.overrideReason?.trim();
  if (!reason) throw holidayConflict(holiday);
  return { reason, holiday: { date: holiday.date, name: holiday.name } };
}

/**
 * Holding the coach's calendar, after its overlap read (./booking.ts bookRange): 409
 * public_holiday (naming the holiday) when the new time touches a public holiday of
 * `holidayState`, else 409 outside_availability when it leaves the coach's free time, unless
 * overridden. Returns what the override was used for, or null.
 */
export async function assertInAvailability(
  tx: Tx,
  move: Move,
  holidayState: string,
): Promise<Override | null> {
  const start = instant(move.startDate).epochMilliseconds;
  const end = instant(move.endDate).epochMilliseconds;
  const holiday = holidayDuring(holidayState, start, end);
  const free = await coachFreeFor(tx, move.coachId, start, end, move.appointmentId);
  if (free && !holiday) return null;
  const reason = move.overrideReason?.trim();
  if (!reason && holiday) throw holidayConflict(holiday);
  if (!reason) {
    throw conflict(
      'outside_availability',
      "The new time is outside the coach's availability; staff may override with availabilityOverrideReason",
    );
  }
  return holiday ? { reason, holiday: { date: holiday.date, name: holiday.name } } : { reason };
}
