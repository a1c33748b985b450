/**
 * The one write path for an appointment's time: "book this range for this coach". Staff
 * bookings, client bookings, client reschedules and staff moves all go through `bookRange`,
 * which guards the invariant that no two live appointments of a coach overlap:
 *
 * 1. the calendars of the coaches asked for are locked (advisory, in id order): racing
 *    bookings with partly overlapping ranges deadlock on the bare exclusion constraint, the
 *    lock makes them queue instead;
 * 2. one read finds which of those coaches already have a live appointment in the range;
 * 3. the write runs for the first coach that is free;
 * 4. the exclusion constraint stays the last guard (a writer that took no lock), answered
 *    like the read: 409 slot_taken.
 *
 * Lock order, the same on every path so no two writes wait on each other: the appointment's
 * row (a move), then the calendars, then the client's row (a new appointment). The client's
 * comes last because writes holding a calendar reference the client (events, messages), and a
 * foreign-key check waits for a client row another booking holds.
 */
import { eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { appointments, clients } from '../../db/schema/index';
import { rowsOf } from '../../db/raw-rows';
import { conflict } from '../../http/problem';
import { newMeetingCode, newVideoRoom } from './codes';

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
 * transaction: locks, one read, `write(coachId)`. 409 slot_taken when none is free.
 */
export async function bookRange<T>(
  tx: Tx,
  range: RangeRequest,
  write: (coachId: string) => Promise<T>,
): Promise<T> {
  const ids = [...new Set(range.coachIds)];
  if (ids.length === 0) throw slotTaken();
  // One statement; count() takes the locks in the array's order, which is sorted.
  await tx.execute(sql`
    SELECT count(pg_advisory_xact_lock(hashtextextended(id, 0)))
      FROM unnest(ARRAY[${list([...ids].sort())}]::text[]) AS id`);
  // A new statement, so a new snapshot: it sees every booking committed under the lock.
  const busy = rowsOf<{ coach_id: string }>(
    await tx.execute(sql`
      SELECT DISTINCT coach_id FROM appointments
       WHERE coach_id IN (${list(ids)}) AND cancelled_at IS NULL
         AND tstzrange(start_date, end_date, '[)')
             && tstzrange(${range.startDate}::timestamptz, ${range.endDate}::timestamptz, '[)')
         ${range.except ? sql`AND id <> ${range.except}::uuid` : sql``}`),
  ).map((r) => r.coach_id);
  const coachId = ids.find((id) => !busy.includes(id));
  if (!coachId) throw slotTaken();
  try {
    return await write(coachId);
  } catch (error) {
    // The transaction is aborted then; the caller's rolls back with the 409.
    if (isOverlap(error)) throw slotTaken();
    throw error;
  }
}

export type NewAppointment = Omit<
  typeof appointments.$inferInsert,
  'id' | 'coachId' | 'meetingCodeCoach' | 'meetingCodeClient' | 'videoRoom' | 'appointmentNumber'
> & {
  /** The coach, or the coaches that may take it in order of preference. */
  coachId: string | readonly string[];
};

/**
 * Books a new appointment with the first free coach (bookRange): the client's row is locked (last, after
 * the calendars) so their appointment numbers stay gap-free and `checkClient` sees their
 * bookings one at a time; then the next number and fresh meeting codes. Returns the new id and
 * the coach that took it.
 */
export async function insertAppointment(
  tx: Tx,
  input: NewAppointment,
  /** The caller's rules about the client, checked holding the client's row. */
  checkClient?: () => Promise<void>,
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
    await checkClient?.();
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
