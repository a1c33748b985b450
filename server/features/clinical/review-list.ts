import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/raw-rows';
import type { Principal } from '../../http/auth';
import { coachLimit, NO_MATCH, type ListedAppointmentRow } from './work-items';

const DAY_MS = 24 * 60 * 60 * 1000;

interface SignedRow extends ListedAppointmentRow {
  doc_id: string;
  signed_at: string | Date;
}

const TABLES = { summary: 'appointment_summaries', patient_card: 'patient_cards' } as const;

/**
 * Signed (`sent`) documents waiting for review, oldest signature first: the rows the /review
 * page completes in batches. Names and dates only, no content. A coach sees their own; a
 * document whose client or appointment was erased has no names left and is not listed.
 */
async function signedDocuments(
  db: Db,
  principal: Principal,
  now: Date,
  kind: keyof typeof TABLES,
  q: { page?: number; limit?: number; coachId?: string },
) {
  const limit = q.limit ?? 10;
  const offset = ((q.page ?? 1) - 1) * limit;
  const coach = coachLimit(principal, q.coachId);
  const coachFilter =
    coach === undefined ? sql`true` : sql`d.coach_id = ${coach ?? NO_MATCH}::uuid`;
  const rows = rowsOf<SignedRow>(
    await db.execute(sql`
      SELECT d.id AS doc_id, a.id AS appointment_id, a.start_date, a.appointment_type,
             c.id AS client_id, c.first_name AS client_first, c.last_name AS client_last,
             co.id AS coach_id, co.first_name AS coach_first, co.last_name AS coach_last,
             d.signed_at, count(*) OVER () AS total
      FROM ${sql.raw(TABLES[kind])} d
      JOIN appointments a ON a.id = d.appointment_id
      JOIN clients c ON c.id = d.client_id
      JOIN coaches co ON co.id = d.coach_id
      WHERE d.status = 'sent' AND ${coachFilter}
      ORDER BY d.signed_at, d.id
      LIMIT ${sql.raw(String(limit))} OFFSET ${sql.raw(String(offset))}`),
  );
  return {
    items: rows.map((r) => {
      const signedAt = new Date(r.signed_at);
      return {
        id: r.doc_id,
        appointmentId: r.appointment_id,
        appointmentStartDate: new Date(r.start_date).toISOString(),
        appointmentType: r.appointment_type as never,
        client: { id: r.client_id, firstName: r.client_first, lastName: r.client_last },
        coach: { id: r.coach_id, firstName: r.coach_first, lastName: r.coach_last },
        status: 'sent' as const,
        signedAt: signedAt.toISOString(),
        daysWaiting: Math.max(0, Math.floor((now.getTime() - signedAt.getTime()) / DAY_MS)),
      };
    }),
    itemCount: rows.length ? Number(rows[0]!.total) : 0,
  };
}

export async function summariesAwaitingReview(
  db: Db,
  principal: Principal,
  now: Date,
  q: { page?: number; limit?: number; coachId?: string },
) {
  const { items, itemCount } = await signedDocuments(db, principal, now, 'summary', q);
  return { summaries: items.map(({ id, ...rest }) => ({ summaryId: id, ...rest })), itemCount };
}

export async function patientCardsAwaitingReview(
  db: Db,
  principal: Principal,
  now: Date,
  q: { page?: number; limit?: number; coachId?: string },
) {
  const { items, itemCount } = await signedDocuments(db, principal, now, 'patient_card', q);
  return {
    patientCards: items.map(({ id, ...rest }) => ({ patientCardId: id, ...rest })),
    itemCount,
  };
}
