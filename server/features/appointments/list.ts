import { and, asc, desc, eq, gte, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import { alias, type PgSelect, type SelectedFields } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { appointments, clients, coaches } from '../../db/schema/index';
import type { Principal } from '../../http/auth';
import { listScopeOf, scopeWhere, type ListScope } from '../../access/policy';
import type { Query } from '../../http/handler';
import { toAppointment } from './repository';
import {
  generationCountQuery,
  jsonRow,
  type JsonPageRow,
  one,
  pageWindow,
  preparedListPage,
  rememberedTotal,
} from '../../http/paging';

// Filters that compare a column with the caller's value; the value is a placeholder, so one
// prepared query serves every value (see preparedOnce).
const VALUE_FILTERS = [
  'fromDate',
  'toDate',
  'appointmentType',
  'noShow',
  'participatingInResearch',
  'selfOrRelative',
  'campaign',
  'insurer',
  'coach',
  'clientId',
] as const;

/** The client, joined inside the page query only for filters on client columns. */
const client = alias(clients, 'client');

function listFilters(scope: ListScope, q: Query<'listAppointments'>) {
  const value = (name: string) => sql.placeholder(name);
  const has = (name: (typeof VALUE_FILTERS)[number]) => q[name] !== undefined;
  return and(
    scopeWhere('appointments', scope, value('scopeCoach')),
    has('fromDate') ? gte(appointments.startDate, value('fromDate')) : undefined,
    has('toDate') ? lt(appointments.startDate, value('toDate')) : undefined,
    has('appointmentType') ? eq(appointments.appointmentType, value('appointmentType')) : undefined,
    q.cancelled === undefined
      ? undefined
      : q.cancelled
        ? isNotNull(appointments.cancelledAt)
        : isNull(appointments.cancelledAt),
    has('noShow') ? eq(appointments.noShow, value('noShow')) : undefined,
    has('participatingInResearch')
      ? eq(client.wantsToProvideRecordingsForResearch, value('participatingInResearch'))
      : undefined,
    has('selfOrRelative') ? eq(client.clientType, value('selfOrRelative')) : undefined,
    has('campaign') ? eq(client.campaign, value('campaign')) : undefined,
    // The client's insurer is kept on the appointment (migration 0004): no join needed.
    has('insurer') ? eq(appointments.clientInsurer, value('insurer')) : undefined,
    has('coach') ? eq(appointments.coachId, value('coach')) : undefined,
    has('clientId') ? eq(appointments.clientId, value('clientId')) : undefined,
  );
}

const needsClient = (q: Query<'listAppointments'>) =>
  q.participatingInResearch !== undefined || !!q.selfOrRelative || !!q.campaign;

// The page's rows, read by id after the page is chosen.
const row = alias(appointments, 'a');
const rowClient = alias(clients, 'c');
const rowCoach = alias(coaches, 'coach');

function pageQuery(db: Db, scope: ListScope, query: Query<'listAppointments'>, counting: boolean) {
  const { limit, offset } = pageWindow(query.page, query.limit);
  const direction = query.sortDirection === 'desc' ? desc : asc;
  const where = listFilters(scope, query);
  const matching = (fields: SelectedFields): PgSelect => {
    const q = db.select(fields).from(appointments).$dynamic() as PgSelect;
    return (
      needsClient(query) ? q.innerJoin(client, eq(client.id, appointments.clientId)) : q
    ).where(where);
  };
  // The page is chosen from the index alone (ids and start times), with the capped count of
  // all matches beside it; only its rows are then read and joined to names.
  const page = matching({
    id: appointments.id,
    sortKey: appointments.startDate,
    total: rememberedTotal(matching(one), counting).as('total'),
  })
    .orderBy(direction(appointments.startDate), direction(appointments.id))
    .limit(limit)
    .offset(offset)
    .as('page');
  return {
    page: PAGE.rowsOf(db, page, row, direction)
      .innerJoin(rowClient, eq(rowClient.id, row.clientId))
      .innerJoin(rowCoach, eq(rowCoach.id, row.coachId)),
    count: generationCountQuery(db, matching(one)),
  };
}

/** The page's columns, read as one JSON array per row (jsonRow). */
const PAGE = jsonRow({
  id: row.id,
  clientId: row.clientId,
  coachId: row.coachId,
  startDate: row.startDate,
  endDate: row.endDate,
  appointmentType: row.appointmentType,
  meetingType: row.meetingType,
  meetingCodeCoach: row.meetingCodeCoach,
  meetingCodeClient: row.meetingCodeClient,
  externalMeetingUrl: row.externalMeetingUrl,
  appointmentNumber: row.appointmentNumber,
  isProvisional: row.isProvisional,
  provisionalUntil: row.provisionalUntil,
  noShow: row.noShow,
  cancelledAt: row.cancelledAt,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
  clientFirstName: rowClient.firstName,
  clientLastName: rowClient.lastName,
  coachFirstName: rowCoach.firstName,
  coachLastName: rowCoach.lastName,
});

function fromPageRow({ fields }: JsonPageRow) {
  const appointment = PAGE.read(fields);
  const { clientFirstName, clientLastName, coachFirstName, coachLastName } = appointment;
  return toAppointment({
    appointment,
    clientFirstName,
    clientLastName,
    coachFirstName,
    coachLastName,
  });
}

/** GET /appointments: one page in the caller's scope and the capped count, in one round trip. */
export async function listAppointmentPage(
  db: Db,
  principal: Principal,
  query: Query<'listAppointments'>,
) {
  const scope = listScopeOf(principal);
  const shape = JSON.stringify([
    scope,
    VALUE_FILTERS.filter((name) => query[name] !== undefined),
    query.cancelled,
    query.sortDirection === 'desc',
    query.limit ?? 10,
    query.page ?? 1,
  ]);
  const values = { ...query, scopeCoach: principal.user?.coachId };
  const countKey = JSON.stringify([
    scope,
    query.cancelled ?? null,
    VALUE_FILTERS.map((name) => query[name] ?? null),
    scope === 'coach' ? values.scopeCoach : null,
  ]);
  const { rows, counts } = await preparedListPage<JsonPageRow>(
    db,
    'list_appointments',
    shape,
    (counting) => pageQuery(db, scope, query, counting),
    values,
    countKey,
  );
  return { appointments: rows.map(fromPageRow), ...counts };
}
