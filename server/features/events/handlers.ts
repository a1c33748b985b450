import { and, desc, eq, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { events, users } from '../../db/schema/index';
import type { Principal } from '../../http/auth';
import { defineHandlers } from '../../http/handler';
import { countQuery, one, pageCounts, pageWindow, totalColumn } from '../../http/paging';
import { subjectsOf } from './subjects';
import { summaryOf } from './summaries';

/** A page of the events matching `where`, each with its actor and what it is about. */
async function pageOfEvents(
  db: Db,
  principal: Principal,
  where: SQL | undefined,
  page?: number,
  limit?: number,
) {
  const window = pageWindow(page, limit);
  const matching = () => db.select(one).from(events).where(where).$dynamic();
  const rows = await db
    .select({
      event: events,
      actorEmail: users.email,
      actorRole: users.role,
      total: totalColumn(matching()),
    })
    .from(events)
    .leftJoin(users, eq(users.id, events.actorUserId))
    .where(where)
    .orderBy(desc(events.occurredAt), desc(events.id))
    .limit(window.limit)
    .offset(window.offset);
  const subjects = await subjectsOf(
    db,
    principal,
    rows.map((r) => r.event),
  );
  return {
    ...(await pageCounts(rows, () => countQuery(db, matching()))),
    rows: rows.map(({ event: e, actorEmail, actorRole }) => ({
      event: e,
      actor:
        e.actorUserId && actorEmail && actorRole
          ? { id: e.actorUserId, email: actorEmail, role: actorRole }
          : null,
      subject: subjects.get(e.id)!,
    })),
  };
}

export const eventsHandlers = defineHandlers({
  async listBusinessEvents({ query, principal, deps }) {
    const { rows, ...counts } = await pageOfEvents(
      deps.db,
      principal,
      and(
        eq(events.source, 'business'),
        query.appointmentId ? eq(events.appointmentId, query.appointmentId) : undefined,
        query.coachId ? eq(events.coachId, query.coachId) : undefined,
        query.clientId ? eq(events.clientId, query.clientId) : undefined,
        query.userId ? eq(events.actorUserId, query.userId) : undefined,
      ),
      query.page,
      query.pageSize,
    );
    return {
      ...counts,
      businessEvents: rows.map(({ event: e, actor, subject }) => ({
        id: e.id,
        occurredAt: e.occurredAt,
        action: e.type,
        entityType: e.entityType,
        entityId: e.entityId,
        actor,
        appointmentId: e.appointmentId,
        clientId: e.clientId,
        coachId: e.coachId,
        changes: e.changes,
        subject,
      })),
    };
  },

  async listEvents({ query, principal, deps }) {
    const { rows, ...counts } = await pageOfEvents(
      deps.db,
      principal,
      and(
        query.showAllEvents ? undefined : eq(events.important, true),
        query.client ? eq(events.clientId, query.client) : undefined,
        query.coach ? eq(events.coachId, query.coach) : undefined,
        query.appointment ? eq(events.appointmentId, query.appointment) : undefined,
      ),
      query.page,
      query.limit,
    );
    return {
      ...counts,
      events: rows.map(({ event: e, actor, subject }) => ({
        id: e.id,
        occurredAt: e.occurredAt,
        type: e.type,
        source: e.source,
        important: e.important,
        actor,
        appointmentId: e.appointmentId,
        clientId: e.clientId,
        coachId: e.coachId,
        summary: summaryOf(e.type),
        subject,
      })),
    };
  },
});
