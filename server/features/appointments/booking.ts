import { eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { appointments, clients } from '../../db/schema/index';
import { conflict } from '../../http/problem';
import { newMeetingCode, newVideoRoom } from './codes';

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

const queues = new Map<string, Promise<void>>();

/**
 * Runs `write` after this process's earlier writes to the coach's calendar have finished.
 * The advisory lock stays the guard across instances; waiting here instead of on the lock
 * keeps a rush of bookings for one coach from holding every pooled connection while they
 * wait, and lets each one see its predecessor's commit before it opens a transaction.
 */
export async function inCoachQueue<T>(coachId: string, write: () => Promise<T>): Promise<T> {
  const previous = queues.get(coachId) ?? Promise.resolve();
  let done!: () => void;
  const tail = previous.then(() => new Promise<void>((resolve) => (done = resolve)));
  queues.set(coachId, tail);
  await previous;
  try {
    return await write();
  } finally {
    done();
    if (queues.get(coachId) === tail) queues.delete(coachId);
  }
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

/** Whether a live appointment of the coach overlaps [start, end) (the exclusion constraint's test). */
export async function overlapsLive(
  tx: Tx | Db,
  coachId: string,
  start: string,
  end: string,
): Promise<boolean> {
  const rows = await tx.execute(sql`
    SELECT 1 FROM appointments
     WHERE coach_id = ${coachId}::uuid AND cancelled_at IS NULL
       AND tstzrange(start_date, end_date, '[)') && tstzrange(${start}::timestamptz, ${end}::timestamptz, '[)')
     LIMIT 1`);
  return (Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows).length > 0;
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
