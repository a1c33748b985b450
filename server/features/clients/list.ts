import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { clients, coaches, toIsoInstant, type ContactPerson } from '../../db/schema/index';
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
import {
  clientCountKey,
  clientFilters,
  clientListShape,
  needsClientRow,
  type ClientRow,
} from './repository';
import { searchMatches, searchWords } from './search';

const SORT_COLUMNS = {
  createdAt: clients.createdAt,
  updatedAt: clients.updatedAt,
  lastName: clients.lastName,
  firstName: clients.firstName,
  yearOfBirth: clients.yearOfBirth,
} as const;

// The page's rows, read by id after the page is chosen.
const row = alias(clients, 'c');
const rowCoach = alias(coaches, 'coach');

/** An OFFSET the statement carries, so the subquery is planned on its own (see searchPage). */
const OFFSET_ZERO = sql.raw('0') as unknown as number;

const searching = (query: Query<'listClients'>) =>
  !!query.search || query.phoneNumber !== undefined;

/**
 * Whether a text search is answered from client_search_terms alone: nothing else is asked
 * of the client and the list is in creation order, so the words' index gives the page, and
 * its count is remembered per list generation like a list without a search.
 */
function fromWordsAlone(scope: ListScope, query: Query<'listClients'>) {
  return (
    !!query.search &&
    searchWords(query.search).length > 0 &&
    scope !== 'none' &&
    (query.sortBy ?? 'createdAt') === 'createdAt' &&
    !needsClientRow(query)
  );
}

/** A page of a text search from the words' index alone (see fromWordsAlone). */
function wordsPage(
  db: Db,
  scope: ListScope,
  query: Query<'listClients'>,
  limit: number,
  offset: number,
) {
  const options = {
    open: !query.showClosedSessions,
    ...(scope === 'coach' ? { coach: sql`${sql.placeholder('scopeCoach')}` } : {}),
  };
  const words = searchWords(query.search!);
  const matching = () =>
    db
      .select(one)
      .from(sql`(${searchMatches(words, options)}) counted`)
      .$dynamic();
  const direction = query.sortOrder ?? 'desc';
  const page = sql`(${searchMatches(words, { ...options, page: { direction, limit, offset } })}) m`;
  return {
    page: db
      .select({
        id: sql<string>`m.id`.as('match_id'),
        sortKey: sql<string>`m.created_at`.as('match_sort_key'),
        total: generationCheckedTotal(matching()).as('total'),
      })
      .from(page)
      .as('page'),
    matching,
  };
}

/**
 * Any other search (a phone number, or words with other filters or another order) reads its
 * matches in no particular order: the page sorts every match anyway, so it counts them in the
 * same pass (`count(*) OVER ()`). The matches are a subquery with OFFSET 0, which PostgreSQL
 * plans on its own, without the page's order: otherwise, once its estimate of the matches
 * grows (a common name), the generic plan walks the list's btree index in order, filtering
 * every client, as if the window could stop after the page; it cannot, so it reads all
 * 50,000 rows (70 ms instead of 1).
 */
function searchPage(
  db: Db,
  scope: ListScope,
  query: Query<'listClients'>,
  sortKey: (typeof SORT_COLUMNS)[keyof typeof SORT_COLUMNS],
  direction: typeof asc,
  limit: number,
  offset: number,
) {
  const words = query.search ? searchWords(query.search) : [];
  const textMatches =
    words.length > 0
      ? searchMatches(words, {
          open: !query.showClosedSessions,
          ...(scope === 'coach' ? { coach: sql`${sql.placeholder('scopeCoach')}` } : {}),
        })
      : undefined;
  const matches = db
    .select({ id: clients.id, sortKey })
    .from(clients)
    .where(
      and(
        textMatches ? sql`${clients.id} IN (SELECT m.id FROM (${textMatches}) m)` : undefined,
        clientFilters(scope, query),
      ),
    )
    .offset(OFFSET_ZERO)
    .as('matches');
  return {
    page: db
      .select({
        id: matches.id,
        sortKey: matches.sortKey,
        total: sql<number>`count(*) OVER ()`.as('total'),
      })
      .from(matches)
      .orderBy(direction(matches.sortKey), direction(matches.id))
      .limit(limit)
      .offset(offset)
      .as('page'),
    // For a page past the end, which carries no count.
    matching: () => db.select(one).from(matches).$dynamic(),
  };
}

function pageQuery(db: Db, scope: ListScope, query: Query<'listClients'>) {
  const { limit, offset } = pageWindow(query.page, query.limit);
  const direction = (query.sortOrder ?? 'desc') === 'asc' ? asc : desc;
  const sortKey = SORT_COLUMNS[query.sortBy ?? 'createdAt'];
  const order = [direction(sortKey), direction(clients.id)];
  // Other filters walk an index in the list's order and stop after the page; their count is
  // a separate walk, in the same order (so the planner takes the index the page walks, not
  // whole client rows), that stops after COUNT_CAP + 1 matches.
  const matching = () =>
    db
      .select(one)
      .from(clients)
      .where(clientFilters(scope, query))
      .orderBy(...order)
      .$dynamic();
  // The page is chosen on ids and the sort column with the count beside it; only its rows
  // are then read and joined to their coach.
  const search = fromWordsAlone(scope, query)
    ? wordsPage(db, scope, query, limit, offset)
    : searching(query)
      ? searchPage(db, scope, query, sortKey, direction, limit, offset)
      : undefined;
  const page = search
    ? search.page
    : db
        .select({
          id: clients.id,
          sortKey,
          total: generationCheckedTotal(matching()).as('total'),
        })
        .from(clients)
        .where(clientFilters(scope, query))
        .orderBy(...order)
        .limit(limit)
        .offset(offset)
        .as('page');
  return {
    page: db
      .select({
        id: row.id,
        firstName: row.firstName,
        lastName: row.lastName,
        email: row.email,
        yearOfBirth: row.yearOfBirth,
        street: row.street,
        city: row.city,
        postalCode: row.postalCode,
        country: row.country,
        telephone: row.telephone,
        additionalTelephoneNumbers: row.additionalTelephoneNumbers,
        hasNotSignedRequiredContract: row.hasNotSignedRequiredContract,
        rejectionReasonType: row.rejectionReasonType,
        rejectionReasonNotes: row.rejectionReasonNotes,
        insurer: row.insurer,
        insurerCode: row.insurerCode,
        campaign: row.campaign,
        clientType: row.clientType,
        contactPerson: row.contactPerson,
        howDidYouHearAboutUs: row.howDidYouHearAboutUs,
        diagnosis: row.diagnosis,
        initialDiagnosis: row.initialDiagnosis,
        mentalStressIndicator: row.mentalStressIndicator,
        paidBySponsor: row.paidBySponsor,
        wantsToProvideRecordingsForResearch: row.wantsToProvideRecordingsForResearch,
        notifyViaSms: row.notifyViaSms,
        notes: row.notes,
        sessionsClosedOn: row.sessionsClosedOn,
        existingClientOfCoachId: row.existingClientOfCoachId,
        contractReminderSentAt: row.contractReminderSentAt,
        createdAt: row.createdAt,
        updatedAt: row.updatedAt,
        coachId: sql`${rowCoach.id}`.as('coach_id'),
        coachFirstName: sql`${rowCoach.firstName}`.as('coach_first_name'),
        coachLastName: sql`${rowCoach.lastName}`.as('coach_last_name'),
        total: page.total,
        generation: generationColumn().as('generation'),
      })
      .from(page)
      .innerJoin(row, eq(row.id, page.id))
      .leftJoin(rowCoach, eq(rowCoach.id, row.coachedById))
      .orderBy(direction(page.sortKey), direction(page.id)),
    count: countQuery(db, search ? search.matching() : matching()),
  };
}

/** A page row as the driver hands it over: column names, timestamps as UTC text. */
interface PageRow {
  id: string;
  first_name: string;
  last_name: string;
  email: string | null;
  year_of_birth: number | null;
  street: string | null;
  city: string | null;
  postal_code: string | null;
  country: string | null;
  telephone: string | null;
  additional_telephone_numbers: string | null;
  has_not_signed_required_contract: boolean;
  rejection_reason_type: ClientRow['rejectionReasonType'];
  rejection_reason_notes: string | null;
  insurer: string | null;
  insurer_code: string | null;
  campaign: string | null;
  client_type: ClientRow['clientType'];
  contact_person: ContactPerson | null;
  how_did_you_hear_about_us: string | null;
  diagnosis: string | null;
  initial_diagnosis: string | null;
  mental_stress_indicator: number | null;
  paid_by_sponsor: boolean;
  wants_to_provide_recordings_for_research: boolean;
  notify_via_sms: boolean;
  notes: string | null;
  sessions_closed_on: string | null;
  existing_client_of_coach_id: string | null;
  contract_reminder_sent_at: string | null;
  created_at: string;
  updated_at: string;
  coach_id: string | null;
  coach_first_name: string | null;
  coach_last_name: string | null;
  total: number | string;
  generation: string;
}

const instantOrNull = (value: string | null) => (value === null ? null : toIsoInstant(value));

/** The contract's Client, as `toClient` (repository.ts) builds it from a joined row. */
function fromPageRow(c: PageRow) {
  return {
    id: c.id,
    firstName: c.first_name,
    lastName: c.last_name,
    email: c.email,
    yearOfBirth: c.year_of_birth,
    street: c.street,
    city: c.city,
    postalCode: c.postal_code,
    country: c.country,
    telephone: c.telephone,
    additionalTelephoneNumbers: c.additional_telephone_numbers,
    createdAt: toIsoInstant(c.created_at),
    updatedAt: toIsoInstant(c.updated_at),
    hasNotSignedRequiredContract: c.has_not_signed_required_contract,
    rejectionReasonType: c.rejection_reason_type,
    rejectionReasonNotes: c.rejection_reason_notes,
    insurer: c.insurer,
    insurerCode: c.insurer_code,
    campaign: c.campaign,
    clientType: c.client_type,
    contactPerson: c.contact_person ?? null,
    howDidYouHearAboutUs: c.how_did_you_hear_about_us,
    diagnosis: c.diagnosis,
    initialDiagnosis: c.initial_diagnosis,
    mentalStressIndicator: c.mental_stress_indicator,
    paidBySponsor: c.paid_by_sponsor,
    wantsToProvideRecordingsForResearch: c.wants_to_provide_recordings_for_research,
    notifyViaSms: c.notify_via_sms,
    notes: c.notes,
    sessionsClosedOn: instantOrNull(c.sessions_closed_on),
    contractReminderSentAt: instantOrNull(c.contract_reminder_sent_at),
    coachedBy: c.coach_id
      ? { id: c.coach_id, firstName: c.coach_first_name!, lastName: c.coach_last_name! }
      : null,
    existingClientOfCoachId: c.existing_client_of_coach_id,
  };
}

/** GET /admin/client: one page in the caller's scope and the capped count, in one round trip. */
export async function listClientPage(db: Db, principal: Principal, query: Query<'listClients'>) {
  const scope = listScopeOf(principal);
  const values = { ...query, scopeCoach: principal.user?.coachId };
  const { rows, counts } = await preparedListPage<PageRow>(
    db,
    'list_clients',
    clientListShape(scope, query),
    () => pageQuery(db, scope, query),
    values,
    // Other searches count in the page's own pass (searchPage).
    fromWordsAlone(scope, query) || !searching(query)
      ? clientCountKey(scope, query, values.scopeCoach)
      : undefined,
  );
  return { clients: rows.map(fromPageRow), ...counts };
}
