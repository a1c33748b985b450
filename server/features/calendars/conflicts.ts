/**
 * Private busy times that overlap appointments already booked. A sync never cancels or moves an
 * appointment (the client was promised it; only staff can weigh a dentist's visit against a
 * session): it records `appointment.private_conflict` once per appointment and busy interval,
 * so staff see it in the activity feed, and the calendar marks the appointment while the overlap
 * lasts.
 *
 * Exact under races: the check takes the coach's calendar lock (the same advisory lock as
 * bookRange in the appointments feature) and runs on both sides. A sync that writes busy times
 * checks after them, holding the lock, so a booking committed before sees them; a booking checks
 * after its write, holding the lock, so busy times committed before are seen. Whichever commits
 * second sees the other, and neither waits for a calendar server.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { rowsOf } from '../../db/raw-rows';
import { recordEvent } from '../events/index';

export const PRIVATE_CONFLICT = 'appointment.private_conflict' as const;

/** Holds the coach's calendar lock until the caller's transaction ends (re-entrant). */
export const lockCoachCalendar = (tx: Tx, coachId: string) =>
  tx.execute(
    sql`SELECT pg_advisory_xact_lock(hashtextextended(${coachId.toLowerCase()}::text, 0))`,
  );

export interface ConflictWindow {
  /** Only appointments ending after this instant count (ISO). */
  from: string;
  /** Only appointments starting before this instant count (ISO); open when absent. */
  to?: string;
  /** The caller holds the coach's calendar lock already (a booking): not asked for again. */
  lockHeld?: boolean;
}

/**
 * Records a conflict event for each live appointment of the coach in `window` that a blocking
 * busy time overlaps and that has none for that busy interval yet. Returns how many it recorded.
 */
export async function notePrivateConflicts(
  tx: Tx,
  coachId: string,
  window: ConflictWindow,
): Promise<number> {
  if (!window.lockHeld) await lockCoachCalendar(tx, coachId);
  const rows = rowsOf<{
    appointment_id: string;
    client_id: string;
    busy_start: string | Date;
    busy_end: string | Date;
  }>(
    await tx.execute(sql`
      SELECT DISTINCT a.id AS appointment_id, a.client_id,
             bt.start_date AS busy_start, bt.end_date AS busy_end
        FROM appointments a
        JOIN calendar_busy_times bt
          ON bt.coach_id = a.coach_id
         AND bt.start_date < a.end_date AND bt.end_date > a.start_date
        JOIN connected_calendars cc ON cc.id = bt.calendar_id AND cc.blocks
        JOIN calendar_connections cn ON cn.id = cc.connection_id
       WHERE a.coach_id = ${coachId}::uuid
         AND a.cancelled_at IS NULL
         AND a.end_date > ${window.from}::timestamptz
         ${window.to ? sql`AND a.start_date < ${window.to}::timestamptz` : sql``}
         AND (NOT bt.all_day OR cn.all_day_blocks)
         AND NOT EXISTS (
               SELECT 1 FROM events e
                WHERE e.appointment_id = a.id
                  AND e.type = ${PRIVATE_CONFLICT}
                  AND (e.changes ->> 'busyStart')::timestamptz = bt.start_date
                  AND (e.changes ->> 'busyEnd')::timestamptz = bt.end_date)
       ORDER BY a.id, busy_start`),
  );
  for (const r of rows) {
    await recordEvent(tx, {
      type: PRIVATE_CONFLICT,
      entityType: 'appointment',
      entityId: r.appointment_id,
      appointmentId: r.appointment_id,
      clientId: r.client_id,
      coachId,
      // Only the interval: what the private event is, nobody here knows.
      changes: {
        busyStart: new Date(r.busy_start).toISOString(),
        busyEnd: new Date(r.busy_end).toISOString(),
      },
    });
  }
  return rows.length;
}
