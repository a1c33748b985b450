import { eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { appointments, clients } from '../../db/schema/index';
import { rowsOf } from '../../db/raw-rows';
import { conflict } from '../../http/problem';
import { newMeetingCode, newVideoRoom } from './codes';
import type { Range } from './coach-line';

type NewAppointment = Omit<
  typeof appointments.$inferInsert,
  'id' | 'meetingCodeCoach' | 'meetingCodeClient' | 'videoRoom' | 'appointmentNumber'
>;

/**
 * Serialises writes to one coach's calendar. Racing bookings with partly overlapping
 * ranges deadlock on the bare exclusion constraint; the lock makes them queue instead.
 */
export async function lockCoachCalendar(tx: Tx, coachId: string) {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${coachId}::text, 0))`);
}

const EXCLUSION_VIOLATION = '23P01';

export function isOverlap(error: unknown): boolean {
  for (
    let e = error as { code?: string; cause?: unknown } | undefined;
    e;
    e = e.cause as typeof e
  ) {
    if (e.code === EXCLUSION_VIOLATION) return true;
  }
  return false;
}

export const slotTaken = () =>
  conflict('slot_taken', 'The coach already has an appointment at this time');

/** Runs a write that may hit the no-overlap constraint, answering 409 slot_taken. */
export async function guardOverlap<T>(tx: Tx, write: () => Promise<T>): Promise<T> {
  // A savepoint keeps the transaction usable for the caller's error handling.
  try {
    return await tx.transaction(async () => write());
  } catch (error) {
    if (isOverlap(error)) throw slotTaken();
    throw error;
  }
}

/**
 * The coach's live (not cancelled) appointments overlapping [start, end): the exclusion
 * constraint's test; `except` leaves out the appointment being moved.
 */
const liveOverlapping = (coachId: string, start: string, end: string, except?: string) => sql`
  FROM appointments
 WHERE coach_id = ${coachId}::uuid AND cancelled_at IS NULL
   AND tstzrange(start_date, end_date, '[)') && tstzrange(${start}::timestamptz, ${end}::timestamptz, '[)')
   ${except ? sql`AND id <> ${except}::uuid` : sql``}`;

/** The coach's live appointments overlapping [from, to), in epoch milliseconds (./coach-line.ts). */
export async function takenRanges(
  db: Db,
  coachId: string,
  from: number,
  to: number,
): Promise<Range[]> {
  const result = await db.execute(sql`
    SELECT (extract(epoch FROM start_date) * 1000)::float8 AS start,
           (extract(epoch FROM end_date) * 1000)::float8 AS "end"
    ${liveOverlapping(coachId, new Date(from).toISOString(), new Date(to).toISOString())}`);
  return rowsOf<{ start: number | string; end: number | string }>(result).map((r) => ({
    start: Number(r.start),
    end: Number(r.end),
  }));
}

/** Whether a live appointment of the coach (other than `except`) overlaps [start, end). */
export async function overlapsLive(
  tx: Tx | Db,
  coachId: string,
  start: string,
  end: string,
  except?: string,
): Promise<boolean> {
  const result = await tx.execute(
    sql`SELECT 1 ${liveOverlapping(coachId, start, end, except)} LIMIT 1`,
  );
  return rowsOf(result).length > 0;
}

/**
 * Inserts an appointment inside the caller's transaction: the coach's calendar is locked,
 * the client's next appointment number taken, and fresh meeting codes drawn.
 */
export async function insertAppointment(tx: Tx, input: NewAppointment): Promise<string> {
  // A time already taken is refused before queueing for the calendar lock, and again once
  // holding it: under a rush for one slot the losers leave after one cheap read instead of
  // waiting for the lock and failing on the constraint (which stays the final guard).
  if (await overlapsLive(tx, input.coachId, input.startDate, input.endDate)) throw slotTaken();
  await lockCoachCalendar(tx, input.coachId);
  if (await overlapsLive(tx, input.coachId, input.startDate, input.endDate)) throw slotTaken();
  // The client row lock keeps appointment numbers gap-free under concurrent bookings.
  await tx
    .select({ id: clients.id })
    .from(clients)
    .where(eq(clients.id, input.clientId))
    .for('update');
  const [{ next } = { next: 1 }] = await tx
    .select({ next: sql<number>`coalesce(max(${appointments.appointmentNumber}), 0) + 1` })
    .from(appointments)
    .where(eq(appointments.clientId, input.clientId));
  const [row] = await guardOverlap(tx, () =>
    tx
      .insert(appointments)
      .values({
        ...input,
        appointmentNumber: Number(next),
        meetingCodeCoach: newMeetingCode(),
        meetingCodeClient: newMeetingCode(),
        videoRoom: newVideoRoom(),
      })
      .returning({ id: appointments.id }),
  );
  return row!.id;
}
