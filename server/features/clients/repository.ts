import { and, eq, gt, inArray, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client';
import { appointments, clients, coaches } from '../../db/schema/index';
import type { Principal } from '../../http/auth';
import { scopeFilter, scopeWhere, type ListScope } from '../../access/policy';
import { withoutClinical } from '../../../shared/clinical-access';
import type { Query } from '../../http/handler';
import { searchShape, searchWords } from './search';

export type ClientRow = typeof clients.$inferSelect;

const coach = alias(coaches, 'coach');

export function selectClients<E extends Record<string, SQL.Aliased | SQL>>(
  db: Db | Tx,
  extra: E = {} as E,
) {
  return db
    .select({
      client: clients,
      coachId: coach.id,
      coachFirstName: coach.firstName,
      coachLastName: coach.lastName,
      ...extra,
    })
    .from(clients)
    .leftJoin(coach, eq(coach.id, clients.coachedById));
}

/** The columns of a client that its record (toClient) shows. */
export type ClientRecordRow = Omit<
  ClientRow,
  'userId' | 'coachedById' | 'searchText' | 'smsConsentAt'
>;

type Joined = {
  client: ClientRecordRow;
  coachId: string | null;
  coachFirstName: string | null;
  coachLastName: string | null;
};

/** The whole record; answers pass it through withoutClinical for the caller's role. */
export function toClient({ client: c, coachId, coachFirstName, coachLastName }: Joined) {
  return {
    id: c.id,
    firstName: c.firstName,
    lastName: c.lastName,
    email: c.email,
    yearOfBirth: c.yearOfBirth,
    street: c.street,
    city: c.city,
    postalCode: c.postalCode,
    country: c.country,
    telephone: c.telephone,
    additionalTelephoneNumbers: c.additionalTelephoneNumbers,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    hasNotSignedRequiredContract: c.hasNotSignedRequiredContract,
    rejectionReasonType: c.rejectionReasonType,
    rejectionReasonNotes: c.rejectionReasonNotes,
    insurer: c.insurer,
    insurerCode: c.insurerCode,
    campaign: c.campaign,
    clientType: c.clientType,
    contactPerson: c.contactPerson ?? null,
    howDidYouHearAboutUs: c.howDidYouHearAboutUs,
    diagnosis: c.diagnosis,
    initialDiagnosis: c.initialDiagnosis,
    mentalStressIndicator: c.mentalStressIndicator,
    paidBySponsor: c.paidBySponsor,
    wantsToProvideRecordingsForResearch: c.wantsToProvideRecordingsForResearch,
    notifyViaSms: c.notifyViaSms,
    newsletterConsent: c.newsletterConsent,
    mailingListStatus: c.mailingListStatus,
    emailBouncedAt: c.emailBouncedAt,
    emailBounceReason: c.emailBounceReason,
    notes: c.notes,
    sessionsClosedOn: c.sessionsClosedOn,
    contractReminderSentAt: c.contractReminderSentAt,
    coachedBy: coachId
      ? { id: coachId, firstName: coachFirstName!, lastName: coachLastName! }
      : null,
    existingClientOfCoachId: c.existingClientOfCoachId,
  };
}

/** The clients the caller reaches (access policy: a coach the clients they coach). */
export const clientScope = (principal: Principal) => scopeFilter(principal, 'clients');

/** A client in the caller's scope, as the caller may see it (withoutClinical), or null. */
export async function findClient(db: Db | Tx, principal: Principal, id: string) {
  const [row] = await selectClients(db).where(and(eq(clients.id, id), clientScope(principal)));
  return row ? withoutClinical(principal.role, toClient(row)) : null;
}

const TYPE_GROUPS = {
  initial: ['initial'],
  first: ['first', 'first-arztkonsultation'],
  followup: ['followup', 'followup-arztkonsultation'],
} as const;

function liveAppointmentsOf(group: keyof typeof TYPE_GROUPS) {
  return sql`SELECT 1 FROM ${appointments} WHERE ${appointments.clientId} = ${clients.id}
    AND ${appointments.cancelledAt} IS NULL
    AND ${inArray(appointments.appointmentType, [...TYPE_GROUPS[group]])}`;
}

const hasAppointment = (group: keyof typeof TYPE_GROUPS, wanted: boolean | undefined) =>
  wanted === undefined
    ? undefined
    : wanted
      ? sql`EXISTS (${liveAppointmentsOf(group)})`
      : sql`NOT EXISTS (${liveAppointmentsOf(group)})`;

const phoneDigits = sql`regexp_replace(coalesce(${clients.telephone}, '') || ',' || coalesce(${clients.additionalTelephoneNumbers}, ''), '[^0-9]', '', 'g')`;

/** +49 151…, 0049 151… and 0151… all reduce to 151…, so any spelling finds the others. */
export function nationalDigits(phone: string): string {
  return phone
    .replace(/\D/g, '')
    .replace(/^(00)?49/, '')
    .replace(/^0+/, '');
}

// Filters that compare a column with the caller's value; the value is a placeholder, so
// one prepared query serves every value (see preparedOnce). Everything else in the query
// is fixed by its shape key (clientListShape).
export const CLIENT_VALUE_FILTERS = [
  'participatingInResearch',
  'selfOrRelative',
  'campaign',
  'insurer',
  'coach',
  'minFollowupAppointments',
  'createdAfter',
] as const;

/** Whether a value filter applies; the SQL and its shape key must agree on this. */
const applies = (q: Query<'listClients'>, name: (typeof CLIENT_VALUE_FILTERS)[number]) =>
  q[name] !== undefined && q[name] !== '' && q[name] !== 0;

/** Whether a list asks anything of the client besides its scope, open sessions and the text. */
export const needsClientRow = (q: Query<'listClients'>) =>
  CLIENT_VALUE_FILTERS.some((name) => applies(q, name)) ||
  q.phoneNumber !== undefined ||
  q.initialAppointment !== undefined ||
  q.firstAppointment !== undefined ||
  q.followupAppointment !== undefined ||
  q.hasRejected !== undefined;

/** The LIKE pattern of a phone search (digits only, so nothing to escape). */
export const phonePattern = (phone: string) => `%${nationalDigits(phone)}%`;

/** The filters' part of a client list's shape: what decides the statement (not its values). */
const filterShape = (scope: ListScope, q: Query<'listClients'>) => [
  scope,
  CLIENT_VALUE_FILTERS.filter((name) => applies(q, name)),
  searchShape(q.search),
  q.phoneNumber !== undefined,
  q.showClosedSessions ?? false,
  q.initialAppointment ?? null,
  q.firstAppointment ?? null,
  q.followupAppointment ?? null,
  q.hasRejected ?? null,
];

/** Everything that decides the SQL of a client list besides the placeholder values. */
export const clientListShape = (scope: ListScope, q: Query<'listClients'>) =>
  JSON.stringify([
    ...filterShape(scope, q),
    q.sortBy ?? 'createdAt',
    q.sortOrder ?? 'desc',
    q.limit ?? 10,
    q.page ?? 1,
  ]);

/** The filters and their values: the key of a remembered count (http/paging.ts). */
export const clientCountKey = (
  scope: ListScope,
  q: Query<'listClients'>,
  scopeCoach: string | null | undefined,
) =>
  JSON.stringify([
    ...filterShape(scope, q),
    CLIENT_VALUE_FILTERS.map((name) => (applies(q, name) ? q[name] : null)),
    q.search === undefined ? null : searchWords(q.search),
    q.phoneNumber === undefined ? null : nationalDigits(q.phoneNumber),
    scope === 'coach' ? scopeCoach : null,
  ]);

export function clientFilters(scope: ListScope, q: Query<'listClients'>): SQL | undefined {
  const value = (name: string) => sql.placeholder(name);
  return and(
    scopeWhere('clients', scope, value('scopeCoach')),
    // The text search is not a filter here: it starts from client_search_terms (list.ts).
    // The pattern is a placeholder (phonePattern); the trigram index serves it at run time.
    q.phoneNumber !== undefined ? sql`${phoneDigits} LIKE ${value('phonePattern')}` : undefined,
    applies(q, 'participatingInResearch')
      ? eq(clients.wantsToProvideRecordingsForResearch, value('participatingInResearch'))
      : undefined,
    applies(q, 'selfOrRelative') ? eq(clients.clientType, value('selfOrRelative')) : undefined,
    applies(q, 'campaign') ? eq(clients.campaign, value('campaign')) : undefined,
    applies(q, 'insurer') ? eq(clients.insurer, value('insurer')) : undefined,
    applies(q, 'coach') ? eq(clients.coachedById, value('coach')) : undefined,
    q.showClosedSessions ? undefined : isNull(clients.sessionsClosedOn),
    hasAppointment('initial', q.initialAppointment),
    hasAppointment('first', q.firstAppointment),
    hasAppointment('followup', q.followupAppointment),
    applies(q, 'minFollowupAppointments')
      ? sql`(SELECT count(*) FROM (${liveAppointmentsOf('followup')} LIMIT ${value('minFollowupAppointments')}) f) >= ${value('minFollowupAppointments')}`
      : undefined,
    q.hasRejected === undefined
      ? undefined
      : q.hasRejected
        ? isNotNull(clients.rejectionReasonType)
        : isNull(clients.rejectionReasonType),
    applies(q, 'createdAfter') ? gt(clients.createdAt, value('createdAfter')) : undefined,
  );
}
