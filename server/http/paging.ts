import {
  Column,
  count,
  eq,
  sql,
  type AnyColumn,
  type asc,
  type GetColumnData,
  type SQL,
  type Subquery,
} from 'drizzle-orm';
import type { PgSelect, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';
import { countedCache } from '../db/counted-cache';
import { preparedOnce } from '../db/prepared';
import { rawRows } from '../db/raw-rows';

/**
 * A LIMIT/OFFSET written into the statement instead of passed as a parameter: with a
 * parameter, PostgreSQL's generic plan must guess the row count and so is never chosen,
 * which means planning the (prepared) list query again on every call.
 */
const literal = (n: number) => sql.raw(String(Math.trunc(n))) as unknown as number;

/** Contract paging: 1-based `page`, `limit` rows; the contract bounds both. */
export function pageWindow(page = 1, limit = 10) {
  return { limit: literal(limit), offset: literal((page - 1) * limit) };
}

/** Large lists count exactly up to this many matches, then say "more than". */
export const COUNT_CAP = 1000;

const capped = (n: number) => ({
  itemCount: Math.min(n, COUNT_CAP),
  itemCountCapped: n > COUNT_CAP,
});

/** The value a select of `C` hands over for each name; the `Joined` ones may be null (left join). */
type FieldsOf<C extends Record<string, Column>, Joined extends keyof C = never> = {
  [K in keyof C]: GetColumnData<C[K]> | (K extends Joined ? null : never);
};

const VALUES = Symbol('values');

/**
 * A list page's columns, by name, as one JSON array per row. node-postgres spends more on
 * many columns (their description on every call, a decode and a parser per field) than
 * PostgreSQL spends building the array: on the bench data a client page (35 columns) cost
 * 40 µs less Node CPU and 19 µs more PostgreSQL CPU. `read` hands the array back as an
 * object with the same names, each value decoded by its column as a select of it would be
 * (timestamps to ISO instants). `_leftJoined` names the columns of a left join, for the type.
 *
 * The names are getters on one prototype, reading the array by index: as cheap as
 * destructuring the array by hand. An object built name by name cost 10 µs a page (a store
 * by computed key is megamorphic); the list bench lost 0.02–0.05 ms of server CPU a request.
 */
export function jsonRow<C extends Record<string, Column>, Joined extends keyof C = never>(
  columns: C,
  _leftJoined: readonly Joined[] = [],
) {
  const list = Object.values(columns);
  class Row {
    [VALUES]: unknown[];
    constructor(values: unknown[]) {
      this[VALUES] = values;
    }
  }
  Object.keys(columns).forEach((name, i) => {
    const column = list[i]!;
    // Looked up once: an aliased column is a proxy.
    const decode =
      column.mapFromDriverValue === Column.prototype.mapFromDriverValue
        ? undefined
        : column.mapFromDriverValue.bind(column);
    Object.defineProperty(Row.prototype, name, {
      enumerable: true,
      get: decode
        ? function (this: Row) {
            const value = this[VALUES][i];
            return value === null ? null : decode(value);
          }
        : function (this: Row) {
            return this[VALUES][i];
          },
    });
  });
  const select = () => sql<unknown[] | string>`json_build_array(${sql.join(list, sql`, `)})`;
  /** The columns of a page (JsonPageRow): these fields, the page's `total`, the generation. */
  const pageColumns = <T>(total: T) => ({
    fields: select().as('fields'),
    total,
    generation: generationColumn().as('generation'),
  });
  return {
    select,
    /**
     * The statement that reads a page chosen on ids alone (`page`: the `id`, the sort column
     * as `sortKey`, and `total`): `row` (the table these columns come from) by id, in the
     * page's order, as JsonPageRow; the caller joins what else the columns name.
     */
    rowsOf: (db: Db, chosen: Subquery, row: { id: AnyColumn }, direction: typeof asc) => {
      const page = chosen as IdPage;
      return db
        .select(pageColumns(page.total))
        .from(page)
        .innerJoin(row as unknown as PgTable, eq(row.id, page.id))
        .orderBy(direction(page.sortKey), direction(page.id))
        .$dynamic();
    },
    // node-postgres parses json; a driver that does not hands over text.
    read: (fields: unknown[] | string) =>
      new Row(
        typeof fields === 'string' ? (JSON.parse(fields) as unknown[]) : fields,
      ) as unknown as FieldsOf<C, Joined>,
  };
}

/** A page chosen on ids alone, before its rows are read (jsonRow's `rowsOf`). */
type IdPage = Subquery & {
  id: AnyColumn | SQL.Aliased;
  sortKey: AnyColumn | SQL.Aliased;
  total: SQL.Aliased;
};

/** A list page's row as the driver hands it over: the fields of a jsonRow, count, generation. */
export interface JsonPageRow {
  fields: unknown[] | string;
  total: number | string | null;
  generation: string;
}

/** The column list of a select that only exists to be counted. */
export const one = { one: sql<number>`1` };

/**
 * A column carrying the capped count of `matching`, so a page and its count come back in
 * one round trip (PostgreSQL evaluates the uncorrelated subquery once). Counting stops
 * after COUNT_CAP + 1 rows: a filter matching 100,000 rows costs as little as one matching
 * 1,001.
 */
export const totalColumn = (matching: PgSelect) =>
  sql<number>`(SELECT count(*) FROM (${matching.limit(literal(COUNT_CAP + 1))}) capped)`.mapWith(
    Number,
  );

/** The list generation (migration 0006) as the statement's snapshot sees it. */
const generationNow = sql`(SELECT "value" FROM "list_generation" WHERE "id" = 1)`;

/** The snapshot's list generation, as a column of a page whose count may be remembered. */
export const generationColumn = () => sql<string>`${generationNow}`;

/**
 * The `total` column of a list whose matches depend only on clients and appointments (so
 * the list generation tells when its count changed): the capped count of `matching` in the
 * statement that counts, none in the one `preparedListPage` runs while it remembers the
 * count. Leaving the count's subquery out of that statement, rather than skipping it with a
 * CASE, spares PostgreSQL setting it up on every call (7 % of a search page's statement).
 */
export const rememberedTotal = (matching: PgSelect, counting: boolean) =>
  counting ? totalColumn(matching) : sql<number | null>`NULL::bigint`;

/** Counts the rows `matching` selects, stopping after COUNT_CAP + 1. */
export const countQuery = (db: Db, matching: PgSelect) =>
  db.select({ n: count() }).from(matching.limit(literal(COUNT_CAP + 1)).as('capped'));

/** `countQuery` with the list generation it was taken under, to be remembered. */
export const generationCountQuery = (db: Db, matching: PgSelect) =>
  db
    .select({ n: count(), generation: generationColumn() })
    .from(matching.limit(literal(COUNT_CAP + 1)).as('capped'));

/**
 * The counts for a page selected with `totalColumn`; an empty page (past the end) carries
 * no count, so only then is it asked for separately.
 */
export async function pageCounts(
  rows: readonly { total: number }[],
  recount: () => Promise<readonly { n: number }[]>,
) {
  if (rows[0]) return capped(rows[0].total);
  const [row] = await recount();
  return capped(row?.n ?? 0);
}

interface Preparable<P> {
  prepare(name: string): P;
}

interface ListStatements {
  page: Preparable<{ execute(values?: Record<string, unknown>): Promise<unknown> }>;
  count: Preparable<{
    execute(
      values?: Record<string, unknown>,
    ): Promise<readonly { n: number; generation?: string | number }[]>;
  }>;
}

/** Counts remembered per filter set with the list generation they were taken under. */
const knownCounts = countedCache<number>(2000);

/**
 * A list page whose statements are built once per shape (preparedOnce): the page's rows as
 * the driver hands them over (rawRows, mapped by the caller) and the capped counts.
 * `build(counting)` gives the page, whose `total` column is `rememberedTotal(…, counting)` or
 * a window count, and the count for a page past the end (`generationCountQuery` where the
 * count may be remembered).
 *
 * `countKey` names the filter set and its values (not the page or the sort) of a page that
 * selects `generationColumn()` as `generation`: its count is taken once per list generation.
 * While it is remembered the page runs without counting, and when the page shows that the
 * generation moved on (a client or an appointment was written) the count is taken again.
 * Without a key the page counts every time.
 */
export async function preparedListPage<
  Row extends { total: number | string | null; generation?: number | string },
>(
  db: Db,
  kind: string,
  shape: string,
  build: (counting: boolean) => ListStatements,
  values: Record<string, unknown>,
  countKey?: string,
) {
  const prepared = preparedOnce(db, kind, shape, (name) => {
    const { page, count } = build(true);
    return {
      page: page.prepare(name),
      count: count.prepare(`${name}_n`),
      // Built on first use: a list without a count key never needs it.
      uncounted: undefined as ReturnType<ListStatements['page']['prepare']> | undefined,
      name,
    };
  });
  const known = countKey === undefined ? undefined : knownCounts.get(db, countKey);
  if (countKey !== undefined && known) {
    prepared.uncounted ??= build(false).page.prepare(`${prepared.name}_k`);
    const rows = await rawRows<Row>(prepared.uncounted, values);
    if (rows[0] && String(rows[0].generation) === known.generation) {
      return { rows, counts: capped(known.value) };
    }
    const [row] = await prepared.count.execute(values);
    const total = Number(row?.n ?? 0);
    if (row?.generation != null) knownCounts.remember(db, countKey, String(row.generation), total);
    return { rows, counts: capped(total) };
  }
  const rows = await rawRows<Row>(prepared.page, values);
  const first = rows[0];
  if (countKey !== undefined && first?.generation != null) {
    knownCounts.remember(db, countKey, String(first.generation), Number(first.total));
  }
  const counted = rows.map((r) => ({ total: Number(r.total) }));
  return { rows, counts: await pageCounts(counted, () => prepared.count.execute(values)) };
}
