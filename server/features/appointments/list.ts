import { and, asc, desc, eq, gte, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import { alias, type PgSelect, type SelectedFields } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { appointments, clients, coaches, toIsoInstant } from '../../db/schema/index';
import { listScopeOf, type ListScope, type Principal } from '../../http/auth';
import type { Query } from '../../http/handler';
import {
  countQuery,
  generationCheckedTotal,
  generationColumn,
  one,
  pageWindow,
  preparedListPage,
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
    scope === 'coach' ? eq(appointments.coachId, value('scopeCoach')) : undefined,
    scope === 'none' ? sql`false` : undefined,
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

// The page's rows, read by id after the page is chosen, under their own names so the raw row
// has one key per column.
const row = alias(appointments, 'a');
const rowClient = alias(clients, 'c');
const rowCoach = alias(coaches, 'coach');

function pageQuery(db: Db, scope: ListScope, query: Query<'listAppointments'>) {
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
    startDate: appointments.startDate,
    total: generationCheckedTotal(matching(one)).as('total'),
  })
    .orderBy(direction(appointments.startDate), direction(appointments.id))
    .limit(limit)
    .offset(offset)
    .as('page');
  return {
    page: db
      .select({
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
        clientFirstName: sql`${rowClient.firstName}`.as('client_first_name'),
        clientLastName: sql`${rowClient.lastName}`.as('client_last_name'),
        coachFirstName: sql`${rowCoach.firstName}`.as('coach_first_name'),
        coachLastName: sql`${rowCoach.lastName}`.as('coach_last_name'),
        total: page.total,
        generation: generationColumn().as('generation'),
      })
      .from(page)
      .innerJoin(row, eq(row.id, page.id))
      .innerJoin(rowClient, eq(rowClient.id, row.clientId))
      .innerJoin(rowCoach, eq(rowCoach.id, row.coachId))
      .orderBy(direction(page.startDate), direction(page.id)),
    count: countQuery(db, matching(one)),
  };
}

/** A page row as the driver hands it over: column names, timestamps as UTC text. */
interface PageRow {
  id: string;
  client_id: string;
  coach_id: string;
  start_date: string;
  end_date: string;
  appointment_type: (typeof appointments.$inferSelect)['appointmentType'];
  meeting_type: (typeof appointments.$inferSelect)['meetingType'];
  meeting_code_coach: string;
  meeting_code_client: string;
  external_meeting_url: string | null;
  appointment_number: number;
  is_provisional: boolean;
  provisional_until: string | null;
  no_show: boolean;
  cancelled_at: string | null;
  created_at: string;
  updated_at: string;
  client_first_name: string;
  client_last_name: string;
  coach_first_name: string;
  coach_last_name: string;
  total: number | string;
  generation: string;
}

const instantOrNull = (value: string | null) => (value === null ? null : toIsoInstant(value));

/** The contract's Appointment, as `toAppointment` (repository.ts) builds it from a joined row. */
function fromPageRow(r: PageRow) {
  return {
    id: r.id,
    startDate: toIsoInstant(r.start_date),
    endDate: toIsoInstant(r.end_date),
    appointmentType: r.appointment_type,
    meetingType: r.meeting_type,
    meetingCodeCoach: r.meeting_code_coach,
    meetingCodeClient: r.meeting_code_client,
    cancelledAt: instantOrNull(r.cancelled_at),
    createdAt: toIsoInstant(r.created_at),
    updatedAt: toIsoInstant(r.updated_at),
    client: { id: r.client_id, firstName: r.client_first_name, lastName: r.client_last_name },
    coach: { id: r.coach_id, firstName: r.coach_first_name, lastName: r.coach_last_name },
    clientId: r.client_id,
    coachId: r.coach_id,
    clientName: `${r.client_first_name} ${r.client_last_name}`,
    isProvisional: r.is_provisional,
    provisionalUntil: instantOrNull(r.provisional_until),
    noShow: r.no_show,
    appointmentNumber: r.appointment_number,
    externalMeetingUrl: r.external_meeting_url,
  };
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
  const { rows, counts } = await preparedListPage<PageRow>(
    db,
    'list_appointments',
    shape,
    () => pageQuery(db, scope, query),
    values,
    countKey,
  );
  return { appointments: rows.map(fromPageRow), ...counts };
}
