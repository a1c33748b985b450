import { and, asc, count, eq, gt, isNull, or, sql } from 'drizzle-orm';
import { appointments, coaches } from '../../db/schema/index';
import type { Db, Tx } from '../../db/client';
import { emailHolder } from '../../db/email-holder';
import { containsText } from '../../db/like';
import { defineHandlers } from '../../http/handler';
import { pageWindow } from '../../http/paging';
import { conflict, notFound } from '../../http/problem';
import { changedFields, recordEvent, updateRecorded } from '../events/index';
import { inTransaction } from '../../db/transaction';

type CoachRow = typeof coaches.$inferSelect;

const toCoach = (row: CoachRow) => ({
  id: row.id,
  firstName: row.firstName,
  lastName: row.lastName,
  email: row.email,
  telephone: row.telephone,
  title: row.title,
  takesInitialAppointments: row.takesInitialAppointments,
  active: row.active,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

async function assertEmailFree(db: Db | Tx, email: string, exceptId?: string) {
  const holder = await emailHolder(db, coaches, email);
  if (holder && holder !== exceptId) {
    throw conflict('email_taken', 'A coach with this e-mail address exists already');
  }
}

/** The coach row, locked until the transaction ends; 404 when there is none. */
async function lockCoach(tx: Tx, id: string) {
  const [row] = await tx.select().from(coaches).where(eq(coaches.id, id)).for('update');
  if (!row) throw notFound('coach');
  return row;
}

export const coachesHandlers = defineHandlers({
  async createCoach({ body, principal, deps, reply }) {
    const coach = await inTransaction(deps.db, async (tx) => {
      await assertEmailFree(tx, body.email);
      const [row] = await tx.insert(coaches).values(body).returning();
      await recordEvent(tx, {
        type: 'coach.created',
        entityType: 'coach',
        entityId: row!.id,
        coachId: row!.id,
        actor: principal,
      });
      return row!;
    });
    reply.code(201);
    return toCoach(coach);
  },

  async listCoaches({ query, deps }) {
    const { limit, offset } = pageWindow(query.page, query.limit);
    const [rows, [total]] = await Promise.all([
      deps.db
        .select()
        .from(coaches)
        .orderBy(asc(coaches.lastName), asc(coaches.firstName), asc(coaches.id))
        .limit(limit)
        .offset(offset),
      deps.db.select({ n: count() }).from(coaches),
    ]);
    return { coaches: rows.map(toCoach), itemCount: total?.n ?? 0 };
  },

  async searchCoaches({ query, deps }) {
    const rows = await deps.db
      .select()
      .from(coaches)
      .where(
        and(
          // Search picks coaches for new work: deactivated coaches are left out.
          eq(coaches.active, true),
          or(
            containsText(
              sql`lower(${coaches.firstName} || ' ' || ${coaches.lastName})`,
              query.query,
            ),
            containsText(sql`lower(${coaches.email})`, query.query),
          ),
        ),
      )
      .orderBy(asc(coaches.lastName), asc(coaches.firstName))
      .limit(query.limit ?? 10);
    return { coaches: rows.map(toCoach) };
  },

  async getCoach({ params, deps }) {
    const [row] = await deps.db.select().from(coaches).where(eq(coaches.id, params.coachId));
    if (!row) throw notFound('coach');
    return toCoach(row);
  },

  async updateCoach({ params, body, principal, deps }) {
    return inTransaction(deps.db, async (tx) => {
      const before = await lockCoach(tx, params.coachId);
      if (body.email) await assertEmailFree(tx, body.email, before.id);
      const row = await updateRecorded(tx, coaches, before.id, body, {
        type: 'coach.updated',
        entityType: 'coach',
        coachId: before.id,
        actor: principal,
        changes: changedFields(before, body),
      });
      return toCoach(row);
    });
  },

  // Coaches are deactivated, not erased: their past appointments keep their names.
  async deleteCoach({ params, principal, deps }) {
    await inTransaction(deps.db, async (tx) => {
      const before = await lockCoach(tx, params.coachId);
      const [future] = await tx
        .select({ id: appointments.id })
        .from(appointments)
        .where(
          and(
            eq(appointments.coachId, before.id),
            isNull(appointments.cancelledAt),
            gt(appointments.endDate, deps.now().toISOString()),
          ),
        )
        .limit(1);
      if (future) {
        throw conflict(
          'coach_has_future_appointments',
          'The coach still has upcoming appointments',
        );
      }
      await updateRecorded(
        tx,
        coaches,
        before.id,
        { active: false },
        {
          type: 'coach.deactivated',
          entityType: 'coach',
          coachId: before.id,
          actor: principal,
        },
      );
    });
  },
});
