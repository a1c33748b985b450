import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { clients, coaches } from '../../db/schema/index';
import type { Principal } from '../../http/auth';
import { listScopeOf, type ListScope } from '../../access/policy';
import { withoutClinical } from '../../../shared/clinical-access';
import type { Query } from '../../http/handler';
import {
  generationCountQuery,
  jsonRow,
  type JsonPageRow,
  one,
  pageWindow,
  preparedListPage,
  rememberedTotal,
} from '../../http/paging';
import {
  clientCountKey,
  clientFilters,
  clientListShape,
  needsClientRow,
  phonePattern,
  toClient,
} from './repository';
import { searchMatches, searchPlaceholders, searchValues, searchWords } from './search';

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

/** Which clients a text search looks among: open sessions unless asked, a coach's own. */
const searchOptions = (scope: ListScope, query: Query<'listClients'>) => ({
  open: !query.showClosedSessions,
  ...(scope === 'coach' ? { coach: sql`${sql.placeholder('scopeCoach')}` } : {}),
});

/**
 * Whether a text search is answered from the search tables alone (search.ts): nothing else
 * is asked of the client and the list is in creation order, so their index gives the page,
 * and its count is remembered per list generation like a list without a search.
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
  counting: boolean,
) {
  const options = searchOptions(scope, query);
  const words = searchPlaceholders(searchWords(query.search!));
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
        total: rememberedTotal(matching(), counting).as('total'),
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
  const words = searchPlaceholders(query.search ? searchWords(query.search) : []);
  const textMatches =
    words.length > 0 ? searchMatches(words, searchOptions(scope, query)) : undefined;
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

function pageQuery(db: Db, scope: ListScope, query: Query<'listClients'>, counting: boolean) {
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
    ? wordsPage(db, scope, query, limit, offset, counting)
    : searching(query)
      ? searchPage(db, scope, query, sortKey, direction, limit, offset)
      : undefined;
  const page = search
    ? search.page
    : db
        .select({
          id: clients.id,
          sortKey,
          total: rememberedTotal(matching(), counting).as('total'),
        })
        .from(clients)
        .where(clientFilters(scope, query))
        .orderBy(...order)
        .limit(limit)
        .offset(offset)
        .as('page');
  return {
    page: PAGE.rowsOf(db, page, row, direction).leftJoin(
      rowCoach,
      eq(rowCoach.id, row.coachedById),
    ),
    count: generationCountQuery(db, search ? search.matching() : matching()),
  };
}

/** The page's columns, read as one JSON array per row (jsonRow). */
const PAGE = jsonRow(
  {
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
    newsletterConsent: row.newsletterConsent,
    mailingListStatus: row.mailingListStatus,
    emailBouncedAt: row.emailBouncedAt,
    emailBounceReason: row.emailBounceReason,
    notes: row.notes,
    sessionsClosedOn: row.sessionsClosedOn,
    existingClientOfCoachId: row.existingClientOfCoachId,
    contractReminderSentAt: row.contractReminderSentAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    coachId: rowCoach.id,
    coachFirstName: rowCoach.firstName,
    coachLastName: rowCoach.lastName,
  },
  ['coachId', 'coachFirstName', 'coachLastName'],
);

function fromPageRow({ fields }: JsonPageRow) {
  const client = PAGE.read(fields);
  const { coachId, coachFirstName, coachLastName } = client;
  return toClient({ client, coachId, coachFirstName, coachLastName });
}

/** GET /admin/client: one page in the caller's scope and the capped count, in one round trip. */
export async function listClientPage(db: Db, principal: Principal, query: Query<'listClients'>) {
  const scope = listScopeOf(principal);
  // The search's words and the phone number are values of the prepared statement.
  const values = {
    ...query,
    scopeCoach: principal.user?.coachId,
    ...searchValues(query.search ? searchWords(query.search) : []),
    ...(query.phoneNumber === undefined ? {} : { phonePattern: phonePattern(query.phoneNumber) }),
  };
  const { rows, counts } = await preparedListPage<JsonPageRow>(
    db,
    'list_clients',
    clientListShape(scope, query),
    (counting) => pageQuery(db, scope, query, counting),
    values,
    // Other searches count in the page's own pass (searchPage).
    fromWordsAlone(scope, query) || !searching(query)
      ? clientCountKey(scope, query, values.scopeCoach)
      : undefined,
  );
  return {
    clients: rows.map((r) => withoutClinical(principal.role, fromPageRow(r))),
    ...counts,
  };
}
