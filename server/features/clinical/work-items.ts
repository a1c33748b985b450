import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/raw-rows';
import type { Principal } from '../../http/auth';

/** A summary is due once the appointment started this long ago. */
export const SUMMARY_DUE_MS = 30 * 60 * 1000;
/** Incomplete this long after the appointment ended counts as overdue (blocker). */
export const OVERDUE_MS = 48 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The coach a list is limited to: a coach always sees only their own (another coach's id
 * matches nothing), everyone else all coaches or the one asked for. `undefined` = no limit.
 */
export function coachLimit(
  principal: Principal,
  coachId: string | undefined,
): string | null | undefined {
  if (principal.role !== 'COACH') return coachId;
  const own = principal.user?.coachId ?? null;
  if (!own || (coachId && coachId !== own)) return null;
  return own;
}
const NO_MATCH = '00000000-0000-0000-0000-000000000000';
const coachFilter = (column: SQL, coach: string | null | undefined) =>
  coach === undefined ? sql`true` : sql`${column} = ${coach ?? NO_MATCH}::uuid`;

const held = (a: SQL, before: string) =>
  sql`${a}.cancelled_at IS NULL AND NOT ${a}.no_show AND NOT ${a}.is_provisional AND ${a}.start_date <= ${before}::timestamptz`;

interface ItemRow {
  appointment_id: string;
  start_date: string | Date;
  appointment_type: string;
  client_id: string;
  client_first: string;
  client_last: string;
  coach_id: string;
  coach_first: string;
  coach_last: string;
  doc_id: string | null;
  doc_status: string | null;
  total: string | number;
}

function toItem(row: ItemRow, now: Date) {
  const start = new Date(row.start_date);
  return {
    appointmentId: row.appointment_id,
    appointmentStartDate: start.toISOString(),
    appointmentType: row.appointment_type as never,
    client: { id: row.client_id, firstName: row.client_first, lastName: row.client_last },
    coach: { id: row.coach_id, firstName: row.coach_first, lastName: row.coach_last },
    docId: row.doc_id,
    status: (row.doc_id ? 'new' : 'missing') as 'new' | 'missing',
    daysOverdue: Math.max(0, Math.floor((now.getTime() - start.getTime()) / DAY_MS)),
  };
}

/** Held appointments (started > 30 min ago) without a signed summary, oldest first. */
export async function incompleteSummaries(
  db: Db,
  principal: Principal,
  now: Date,
  q: { page?: number; limit?: number; coachId?: string },
) {
  const limit = q.limit ?? 10;
  const offset = ((q.page ?? 1) - 1) * limit;
  const due = new Date(now.getTime() - SUMMARY_DUE_MS).toISOString();
  const coach = coachLimit(principal, q.coachId);
  // The page walks appointments in start order and stops after it (no window count, which
  // would make every request join all held appointments); the count is its own query.
  const [rows, total] = await Promise.all([
    db.execute(sql`
      SELECT a.id AS appointment_id, a.start_date, a.appointment_type,
             c.id AS client_id, c.first_name AS client_first, c.last_name AS client_last,
             co.id AS coach_id, co.first_name AS coach_first, co.last_name AS coach_last,
             s.id AS doc_id, s.status AS doc_status, 0 AS total
      FROM appointments a
      JOIN clients c ON c.id = a.client_id
      JOIN coaches co ON co.id = a.coach_id
      LEFT JOIN appointment_summaries s ON s.appointment_id = a.id
      WHERE ${held(sql`a`, due)} AND ${coachFilter(sql`a.coach_id`, coach)}
        AND (s.id IS NULL OR s.status = 'new')
      ORDER BY a.start_date, a.id
      LIMIT ${sql.raw(String(limit))} OFFSET ${sql.raw(String(offset))}`),
    countSummaries(db, due, coach),
  ]);
  return {
    summaries: rowsOf<ItemRow>(rows).map((r) => {
      const { docId, ...item } = toItem(r, now);
      return { ...item, summaryId: docId };
    }),
    itemCount: total,
  };
}

async function countSummaries(db: Db, due: string, coach: string | null | undefined) {
  const [row] = rowsOf<{ n: string | number }>(
    await db.execute(sql`
      SELECT count(*) AS n FROM appointments a
      WHERE ${held(sql`a`, due)} AND ${coachFilter(sql`a.coach_id`, coach)}
        AND NOT EXISTS (SELECT 1 FROM appointment_summaries s
                         WHERE s.appointment_id = a.id AND s.status <> 'new')`),
  );
  return Number(row?.n ?? 0);
}

/** The first held appointment of every client (in reach) that has no signed patient card. */
const firstHeld = (principal: Principal, due: string, coachId: string | undefined) => sql`
  SELECT DISTINCT ON (a.client_id) a.id, a.client_id, a.start_date, a.end_date, a.appointment_type,
         COALESCE(c.coached_by_id, a.coach_id) AS coach_id, c.first_name, c.last_name
  FROM appointments a
  JOIN clients c ON c.id = a.client_id
  WHERE ${held(sql`a`, due)}
    AND ${coachFilter(sql`COALESCE(c.coached_by_id, a.coach_id)`, coachLimit(principal, coachId))}
  ORDER BY a.client_id, a.start_date, a.id`;

export async function incompletePatientCards(
  db: Db,
  principal: Principal,
  now: Date,
  q: { page?: number; limit?: number; coachId?: string },
) {
  const limit = q.limit ?? 10;
  const offset = ((q.page ?? 1) - 1) * limit;
  const due = new Date(now.getTime() - SUMMARY_DUE_MS).toISOString();
  const rows = rowsOf<ItemRow>(
    await db.execute(sql`
      WITH f AS (${firstHeld(principal, due, q.coachId)})
      SELECT f.id AS appointment_id, f.start_date, f.appointment_type,
             f.client_id, f.first_name AS client_first, f.last_name AS client_last,
             co.id AS coach_id, co.first_name AS coach_first, co.last_name AS coach_last,
             p.id AS doc_id, p.status AS doc_status, count(*) OVER () AS total
      FROM f
      JOIN coaches co ON co.id = f.coach_id
      LEFT JOIN patient_cards p ON p.client_id = f.client_id AND p.status <> 'canceled'
      WHERE p.id IS NULL OR p.status = 'new'
      ORDER BY f.start_date, f.id
      LIMIT ${sql.raw(String(limit))} OFFSET ${sql.raw(String(offset))}`),
  );
  return {
    patientCards: rows.map((r) => {
      const { docId, ...item } = toItem(r, now);
      return { ...item, patientCardId: docId };
    }),
    itemCount: rows.length ? Number(rows[0]!.total) : 0,
  };
}

type Counts = {
  missing: number;
  new: number;
  sent: number;
  completed: number;
  canceled: number;
  blocked: number;
};
const zero = (): Counts => ({ missing: 0, new: 0, sent: 0, completed: 0, canceled: 0, blocked: 0 });

async function docCounts(
  db: Db,
  table: 'appointment_summaries' | 'patient_cards',
  coach: string | null | undefined,
) {
  const counts = zero();
  const rows = rowsOf<{ status: keyof Counts; n: string | number; blocked: string | number }>(
    await db.execute(sql`
      SELECT status, count(*) AS n, count(*) FILTER (WHERE jsonb_array_length(blocker_codes) > 0) AS blocked
      FROM ${sql.raw(table)} d WHERE ${coachFilter(sql`d.coach_id`, coach)} GROUP BY status`),
  );
  for (const r of rows) {
    counts[r.status] = Number(r.n);
    if (r.status === 'new') counts.blocked = Number(r.blocked);
  }
  return counts;
}

export async function patientCardStatus(
  db: Db,
  principal: Principal,
  now: Date,
  coachId: string | undefined,
) {
  const coach = coachLimit(principal, coachId);
  const counts = await docCounts(db, 'patient_cards', coach);
  const due = new Date(now.getTime() - SUMMARY_DUE_MS).toISOString();
  const overdueBefore = new Date(now.getTime() - OVERDUE_MS).toISOString();
  const [row] = rowsOf<{ missing: string | number; overdue: string | number }>(
    await db.execute(sql`
      WITH f AS (${firstHeld(principal, due, coachId)})
      SELECT count(*) FILTER (WHERE p.id IS NULL) AS missing,
             count(*) FILTER (WHERE f.end_date < ${overdueBefore}::timestamptz) AS overdue
      FROM f LEFT JOIN patient_cards p ON p.client_id = f.client_id AND p.status <> 'canceled'
      WHERE p.id IS NULL OR p.status = 'new'`),
  );
  counts.missing = Number(row?.missing ?? 0);
  const overdue = Number(row?.overdue ?? 0);
  return {
    counts,
    overdue,
    status: overdue || counts.blocked ? ('blocker' as const) : ('available' as const),
  };
}

export async function tasksStatus(
  db: Db,
  principal: Principal,
  now: Date,
  coachId: string | undefined,
) {
  const coach = coachLimit(principal, coachId);
  const cards = await patientCardStatus(db, principal, now, coachId);
  const summaries = await docCounts(db, 'appointment_summaries', coach);
  const due = new Date(now.getTime() - SUMMARY_DUE_MS).toISOString();
  const overdueBefore = new Date(now.getTime() - OVERDUE_MS).toISOString();
  const [row] = rowsOf<{ missing: string | number; overdue: string | number }>(
    await db.execute(sql`
      SELECT count(*) FILTER (WHERE s.id IS NULL) AS missing,
             count(*) FILTER (WHERE a.end_date < ${overdueBefore}::timestamptz) AS overdue
      FROM appointments a LEFT JOIN appointment_summaries s ON s.appointment_id = a.id
      WHERE ${held(sql`a`, due)} AND ${coachFilter(sql`a.coach_id`, coach)}
        AND (s.id IS NULL OR s.status = 'new')`),
  );
  summaries.missing = Number(row?.missing ?? 0);
  const overdue = cards.overdue + Number(row?.overdue ?? 0);
  const blocked = overdue > 0 || cards.counts.blocked > 0 || summaries.blocked > 0;
  return {
    status: blocked ? ('blocker' as const) : ('available' as const),
    patientCards: cards.counts,
    summaries,
    overdue,
  };
}

/** Signed documents waiting for review (and open billable items) per coach, oldest first. */
export async function pendingByCoach(
  db: Db,
  principal: Principal,
  q: { page?: number; limit?: number; coachId?: string },
) {
  const limit = q.limit ?? 10;
  const offset = ((q.page ?? 1) - 1) * limit;
  const coach = coachLimit(principal, q.coachId);
  const rows = rowsOf<{
    id: string;
    first_name: string;
    last_name: string;
    summaries: string | number;
    cards: string | number;
    items: string | number;
    oldest: string | Date | null;
    total: string | number;
  }>(
    await db.execute(sql`
      WITH pending AS (
        SELECT s.coach_id, 1 AS summaries, 0 AS cards, 0 AS items, a.start_date
          FROM appointment_summaries s LEFT JOIN appointments a ON a.id = s.appointment_id WHERE s.status = 'sent'
        UNION ALL
        SELECT p.coach_id, 0, 1, 0, a.start_date
          FROM patient_cards p LEFT JOIN appointments a ON a.id = p.appointment_id WHERE p.status = 'sent'
        UNION ALL
        SELECT b.coach_id, 0, 0, 1, a.start_date
          FROM billable_items b LEFT JOIN appointments a ON a.id = b.appointment_id
          WHERE b.status IN ('pending', 'validation_failed')
      )
      SELECT co.id, co.first_name, co.last_name, sum(summaries) AS summaries, sum(cards) AS cards,
             sum(items) AS items, min(start_date) AS oldest, count(*) OVER () AS total
      FROM pending JOIN coaches co ON co.id = pending.coach_id
      WHERE ${coachFilter(sql`co.id`, coach)}
      GROUP BY co.id
      ORDER BY min(start_date) NULLS LAST, co.id
      LIMIT ${sql.raw(String(limit))} OFFSET ${sql.raw(String(offset))}`),
  );
  return {
    coaches: rows.map((r) => ({
      coach: { id: r.id, firstName: r.first_name, lastName: r.last_name },
      pendingSummaries: Number(r.summaries),
      pendingPatientCards: Number(r.cards),
      pendingBillableItems: Number(r.items),
      oldestPendingAt: r.oldest === null ? null : new Date(r.oldest).toISOString(),
    })),
    itemCount: rows.length ? Number(rows[0]!.total) : 0,
  };
}
