/**
 * The rules of a staff move (a new start, end or coach), the same as a booking's (issue 17):
 * the new start lies in the future, the new time in the coach's free availability unless a
 * staff member overrides that with a reason, and it overlaps no live appointment of the coach
 * (./booking.ts bookRange, which every move goes through).
 */
import { Temporal } from '@js-temporal/polyfill';
import { instant, instantOf } from '../../time';
import type { Tx } from '../../db/client';
import type { AppDeps } from '../../http/handler';
import { badRequest, conflict } from '../../http/problem';
import { coachFreeFor } from '../scheduling/index';

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
      'Say why the move may leave the availability',
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

/**
 * Holding the coach's calendar, after its overlap read (./booking.ts bookRange): 409
 * outside_availability unless overridden. Returns the reason an override used, or null.
 */
export async function assertInAvailability(tx: Tx, move: Move): Promise<string | null> {
  const free = await coachFreeFor(
    tx,
    move.coachId,
    instant(move.startDate).epochMilliseconds,
    instant(move.endDate).epochMilliseconds,
    move.appointmentId,
  );
  if (free) return null;
  const reason = move.overrideReason?.trim();
  if (!reason) {
    throw conflict(
      'outside_availability',
      "The new time is outside the coach's availability; staff may override with availabilityOverrideReason",
    );
  }
  return reason;
}
