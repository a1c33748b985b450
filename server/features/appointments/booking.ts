/**
 * The one write path for an appointment's time: "book this range for this coach". Staff
 * bookings, client bookings, client reschedules and staff moves all go through `bookRange`,
 * which guards the invariant that no two live appointments of a coach overlap:
 *
 * 1. one read finds which of the coaches asked for already have a live appointment in the
 *    range; under a rush for one slot, whoever comes after the winner has committed is
 *    refused here without queueing for any lock;
 * 2. the first free coach's calendar is locked (advisory, per coach): racing bookings with
 *    partly overlapping ranges deadlock on the bare exclusion constraint, the lock makes
 *    them queue instead;
 * 3. the write runs holding the lock;
 * 4. the exclusion constraint is the last guard, for a booking committed between the read
 *    and the lock: answered like the read, 409 slot_taken.
 *
 * Lock order, the same on every path so no two writes wait on each other: the appointment's
 * row (a move), then one calendar, then the client's row (a new appointment). A transaction
 * never holds one calendar while it waits for another. The client's row comes last because
 * writes holding a calendar insert rows that refer to the client (events, messages), and
 * their foreign-key checks wait for a client row another booking holds.
 */
import { eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { appointments, clients } from '../../db/schema/index';
import { rowsOf } from '../../db/raw-rows';
import { conflict, HttpProblem } from '../../http/problem';
import { newMeetingCode, newVideoRoom } from './codes';
import { notePrivateConflicts } from '../calendars/index';

export const slotTaken = () =>
  conflict('slot_taken', 'The coach already has an appointment at this time');

const EXCLUSION_VIOLATION = '23P01';

function isOverlap(error: unknown): boolean {
  for (
    let e = error as { code?: string; cause?: unknown } | undefined;
    e;
    e = e.cause as typeof e
  ) {
    if (e.code === EXCLUSION_VIOLATION) return true;
  }
  return false;
}

export interface RangeRequest {
  /** The coaches that may take the range, in order of preference. */
  coachIds: readonly string[];
  startDate: string;
  endDate: string;
  /** The appointment being moved: its own current time does not count as taken. */
  except?: string | undefined;
}

const list = (values: readonly string[]) =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );

/**
 * Books [startDate, endDate) for the first free coach of `coachIds` inside the caller's
 * transaction: one read, the lock, `write(coachId)`. 409 slot_taken when none is free.
 */
export async function bookRange<T>(
  tx: Tx,
  range: RangeRequest,
  write: (coachId: string) => Promise<T>,
): Promise<T> {
  // As PostgreSQL writes uuids, so lock keys and the read's answer match whatever case came in.
  const ids = [...new Set(range.coachIds.map((id) => id.toLowerCase()))];
  if (ids.length === 0) throw slotTaken();
  const busy = rowsOf<{ coach_id: string }>(
    await tx.execute(sql`
      SELECT DISTINCT coach_id FROM appointments
       WHERE coach_id IN (${list(ids)}) AND cancelled_at IS NULL
         AND tstzrange(start_date, end_date, '[)')
             && tstzrange(${range.startDate}::timestamptz, ${range.endDate}::timestamptz, '[)')
         ${range.except ? sql`AND id <> ${range.except}::uuid` : sql``}`),
  ).map((r) => r.coach_id);
  const free = ids.filter((id) => !busy.includes(id));
  // One candidate: a refusal ends the request, its transaction rolls back.
  if (free.length === 1) return claim(tx, free[0]!, range, write);
  // Several (the client pool): each try in a savepoint, so a coach taken since the read
  // leaves the transaction usable for the next; its lock goes with the savepoint.
  for (const coachId of free) {
    try {
      return await tx.transaction(() => claim(tx, coachId, range, write));
    } catch (error) {
      if (!(error instanceof HttpProblem && error.code === 'slot_taken')) throw error;
    }
  }
  throw slotTaken();
}

/**
 * Locks the coach's calendar and writes; the exclusion constraint answers 409 slot_taken. Still
 * holding the lock, a private busy time the written range overlaps is recorded for staff: one
 * that a sync committed while this booking was on its way is seen here, one committed later is
 * seen by that sync (the calendars feature's notePrivateConflicts takes the same lock).
 */
async function claim<T>(
  tx: Tx,
  coachId: string,
  range: RangeRequest,
  write: (coachId: string) => Promise<T>,
) {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${coachId}::text, 0))`);
  let written: T;
  try {
    written = await write(coachId);
  } catch (error) {
    if (isOverlap(error)) throw slotTaken();
    throw error;
  }
  // Needed for exactness: a sync that committed busy times while this booking waited for the
  // lock checked before the appointment existed. One statement; the lock is not asked again.
  await notePrivateConflicts(tx, coachId, {
    from: range.startDate,
    to: range.endDate,
    lockHeld: true,
  });
  return written;
}

export type NewAppointment = Omit<
  typeof appointments.$inferInsert,
  'id' | 'coachId' | 'meetingCodeCoach' | 'meetingCodeClient' | 'videoRoom' | 'appointmentNumber'
> & {
  /** The coach, or the coaches that may take it in order of preference. */
  coachId: string | readonly string[];
};

/**
 * Books a new appointment with the first free coach (bookRange): the client's row is locked
 * (last, after the calendar) so their appointment numbers stay gap-free and `check` sees
 * their bookings one at a time; then the next number and fresh meeting codes. Returns
 * the new id and the coach that took it.
 */
export async function insertAppointment(
  tx: Tx,
  input: NewAppointment,
  /** The caller's rules (parties, scope, the client's other bookings), checked holding the
   *  calendar and the client's row, after the overlap read. */
  check?: () => Promise<void>,
): Promise<{ id: string; coachId: string }> {
  const range = {
    coachIds: typeof input.coachId === 'string' ? [input.coachId] : input.coachId,
    startDate: input.startDate,
    endDate: input.endDate,
  };
  return bookRange(tx, range, async (coachId) => {
    await tx
      .select({ id: clients.id })
      .from(clients)
      .where(eq(clients.id, input.clientId))
      .for('update');
    await check?.();
    const [row] = await tx
      .insert(appointments)
      .values({
        ...input,
        coachId,
        // A statement after the client's lock: it sees the client's last committed number.
        appointmentNumber: sql`(SELECT coalesce(max(${appointments.appointmentNumber}), 0) + 1
          FROM ${appointments} WHERE ${appointments.clientId} = ${input.clientId})`,
        meetingCodeCoach: newMeetingCode(),
        meetingCodeClient: newMeetingCode(),
        videoRoom: newVideoRoom(),
      })
      .returning({ id: appointments.id });
    return { id: row!.id, coachId };
  });
}
