import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { countedCache } from '../../db/counted-cache';
import { rowsOf } from '../../db/raw-rows';
import type { Principal } from '../../http/auth';

/** A summary is due once the appointment started this long ago. */
export const SUMMARY_DUE_MS = 30 * 60 * 1000;
/** Incomplete this long after the appointment ended counts as overdue (blocker). */
export const OVERDUE_MS = 48 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

import { coachLimit } from '../../access/policy';
export { coachLimit };
export const NO_MATCH = '00000000-0000-0000-0000-000000000000';
const coachFilter = (column: SQL, coach: string | null | undefined) =>
  coach === undefined ? sql`true` : sql`${column} = ${coach ?? NO_MATCH}::uuid`;

/** What the work lists read of an appointment, its client and coach (names, no content). */
export interface ListedAppointmentRow {
  appointment_id: string;
  start_date: string | Date;
  appointment_type: string;
  client_id: string;
  client_first: string;
  client_last: string;
  coach_id: string;
  coach_first: string;
  coach_last: string;
  total: string | number;
}

interface ItemRow extends ListedAppointmentRow {
  doc_id: string | null;
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

/**
 * The open work tables (kept by triggers, migration 0018): one row per appointment without
 * a signed summary, one per client without a signed card, each with its start and coach.
 */
const OPEN = {
  summary: { table: sql.raw('clinical_open_summaries'), doc: sql.raw('summary_id') },
  patient_card: { table: sql.raw('clinical_open_patient_cards'), doc: sql.raw('patient_card_id') },
} as const;
type OpenKind = keyof typeof OPEN;

/** The open rows that are due (started at least 30 minutes ago) in a coach's reach. */
const dueOpen = (kind: OpenKind, due: string, coach: string | null | undefined) =>
  sql`${OPEN[kind].table} o WHERE o.start_date <= ${due}::timestamptz AND ${coachFilter(sql`o.coach_id`, coach)}`;

interface ListQuery {
  page?: number;
  limit?: number;
  coachId?: string;
}

const generationNow = sql`(SELECT value FROM clinical_open_generation WHERE id = 1)`;

/**
 * Counts remembered per list and coach: the count at `due` under a generation of the open
 * work tables. While the generation stands, the count at a later `due` is that count plus the
 * open rows that became due in between (a short index range), so the exact count does not walk
 * every open row on each request. Per process; the generation makes it right across processes.
 */
const knownCounts = countedCache<{ due: string; total: number }>(500);

/**
 * One page of open work, oldest first, and its exact count, in one statement: the page is
 * an index walk of the open rows in (coach,) start order that stops after it, then the rows'
 * names by primary key; the count is remembered (above), or an index range of the open rows.
 */
async function openPage(db: Db, kind: OpenKind, principal: Principal, now: Date, q: ListQuery) {
  const limit = q.limit ?? 10;
  const offset = ((q.page ?? 1) - 1) * limit;
  const due = new Date(now.getTime() - SUMMARY_DUE_MS).toISOString();
  const coach = coachLimit(principal, q.coachId);
  const key = `${kind}:${coach === undefined ? '*' : (coach ?? '-')}`;
  const known = knownCounts.get(db, key);
  const since = known && known.value.due <= due ? known : undefined;
  const counted = since
    ? sql`SELECT count(*) FROM ${dueOpen(kind, due, coach)} AND o.start_date > ${since.value.due}::timestamptz`
    : sql`SELECT count(*) FROM ${dueOpen(kind, due, coach)}`;
  const rows = rowsOf<ItemRow & { generation: string | number }>(
    await db.execute(sql`
      SELECT o.appointment_id, o.start_date, a.appointment_type,
             c.id AS client_id, c.first_name AS client_first, c.last_name AS client_last,
             co.id AS coach_id, co.first_name AS coach_first, co.last_name AS coach_last,
             o.doc_id, (${counted}) AS total, ${generationNow} AS generation
      FROM (SELECT o.appointment_id, o.coach_id, o.start_date, o.${OPEN[kind].doc} AS doc_id
              FROM ${dueOpen(kind, due, coach)}
             ORDER BY o.start_date, o.appointment_id
             LIMIT ${sql.raw(String(limit))} OFFSET ${sql.raw(String(offset))}) o
      JOIN appointments a ON a.id = o.appointment_id
      JOIN clients c ON c.id = a.client_id
      JOIN coaches co ON co.id = o.coach_id
      ORDER BY o.start_date, o.appointment_id`),
  );
  const first = rows[0];
  let total: number;
  if (first && !since) total = Number(first.total);
  else if (first && since && String(first.generation) === since.generation) {
    total = since.value.total + Number(first.total);
  } else {
    // Past the last page, or the open work changed since the count was taken: count afresh.
    const [row] = rowsOf<{ n: string | number; generation: string | number }>(
      await db.execute(
        sql`SELECT count(*) AS n, ${generationNow} AS generation FROM ${dueOpen(kind, due, coach)}`,
      ),
    );
    total = Number(row?.n ?? 0);
    if (row) knownCounts.remember(db, key, String(row.generation), { due, total });
    return { items: rows.map((r) => toItem(r, now)), itemCount: total };
  }
  knownCounts.remember(db, key, String(first.generation), { due, total });
  return { items: rows.map((r) => toItem(r, now)), itemCount: total };
}

/** Held appointments (started > 30 min ago) without a signed summary, oldest first. */
export async function incompleteSummaries(db: Db, principal: Principal, now: Date, q: ListQuery) {
  const { items, itemCount } = await openPage(db, 'summary', principal, now, q);
  return {
    summaries: items.map(({ docId, ...item }) => ({ ...item, summaryId: docId })),
    itemCount,
  };
}

/** Clients (first held appointment, oldest first) without a signed patient card. */
export async function incompletePatientCards(
  db: Db,
  principal: Principal,
  now: Date,
  q: ListQuery,
) {
  const { items, itemCount } = await openPage(db, 'patient_card', principal, now, q);
  return {
    patientCards: items.map(({ docId, ...item }) => ({ ...item, patientCardId: docId })),
    itemCount,
  };
}

/** Due open work without any document yet, and what is overdue (48 h after the end). */
async function openCounts(db: Db, kind: OpenKind, now: Date, coach: string | null | undefined) {
  const due = new Date(now.getTime() - SUMMARY_DUE_MS).toISOString();
  const overdueBefore = new Date(now.getTime() - OVERDUE_MS).toISOString();
  const [row] = rowsOf<{ missing: string | number; overdue: string | number }>(
    await db.execute(sql`
      SELECT count(*) FILTER (WHERE o.${OPEN[kind].doc} IS NULL) AS missing,
             count(*) FILTER (WHERE o.end_date < ${overdueBefore}::timestamptz) AS overdue
      FROM ${dueOpen(kind, due, coach)}`),
  );
  return { missing: Number(row?.missing ?? 0), overdue: Number(row?.overdue ?? 0) };
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
  const [counts, open] = await Promise.all([
    docCounts(db, 'patient_cards', coach),
    openCounts(db, 'patient_card', now, coach),
  ]);
  counts.missing = open.missing;
  return {
    counts,
    overdue: open.overdue,
    status: open.overdue || counts.blocked ? ('blocker' as const) : ('available' as const),
  };
}

export async function tasksStatus(
  db: Db,
  principal: Principal,
  now: Date,
  coachId: string | undefined,
) {
  const coach = coachLimit(principal, coachId);
  const [cards, summaries, open] = await Promise.all([
    patientCardStatus(db, principal, now, coachId),
    docCounts(db, 'appointment_summaries', coach),
    openCounts(db, 'summary', now, coach),
  ]);
  summaries.missing = open.missing;
  const overdue = cards.overdue + open.overdue;
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
