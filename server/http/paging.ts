import { count, sql } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';

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

/** Counts the rows `matching` selects, stopping after COUNT_CAP + 1. */
export const countQuery = (db: Db, matching: PgSelect) =>
  db.select({ n: count() }).from(matching.limit(literal(COUNT_CAP + 1)).as('capped'));

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
