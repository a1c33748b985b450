import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  customType,
  integer,
  pgTable,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';

// The column shapes every table file uses, so that a table says only what is its own.

const UTC_TEXT = /^(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?\+00(?::00)?$/;

/**
 * Drivers hand timestamptz over as '2026-11-22 00:49:24.728+00' (sessions run in UTC) or
 * as a Date; inside JSON, PostgreSQL writes '2026-11-22T00:49:24.728+00:00'. The UTC text
 * forms are rewritten without parsing, since every row of every list passes through here.
 */
export function toIsoInstant(value: string | Date): string {
  if (value instanceof Date) return value.toISOString();
  const utc = UTC_TEXT.exec(value);
  if (utc) return `${utc[1]}T${utc[2]}.${(utc[3] ?? '').padEnd(3, '0').slice(0, 3)}Z`;
  const normalized = value.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00');
  return new Date(normalized).toISOString();
}

// Every timestamp is timestamptz (UTC), carried through the app as an ISO 8601 string.
// Millisecond precision, the precision of the API: what a caller sees is exactly what is
// stored, so `createdAfter=<a createdAt it was shown>` excludes that very row.
const isoTimestamp = customType<{ data: string; driverData: string | Date }>({
  dataType: () => 'timestamp(3) with time zone',
  fromDriver: toIsoInstant,
  toDriver: (value) => value,
});

export const ts = (name: string) => isoTimestamp(name);
/** A timestamp the database sets when the row is written. */
export const stampedNow = (name: string) =>
  ts(name)
    .notNull()
    .default(sql`now()`);
export const createdAt = () => stampedNow('created_at');
export const updatedAt = () => stampedNow('updated_at');

/** The row's own id: a random UUID the database draws. */
export const uuidId = () => uuid('id').primaryKey().defaultRandom();

/** A row that belongs to another: it goes when that one is deleted. */
export const ownedBy = (name: string, owner: () => AnyPgColumn) =>
  uuid(name).notNull().references(owner, { onDelete: 'cascade' });

/** Renders `column IN ('a','b')` for enum checks. */
export const inList = (values: readonly string[]) =>
  sql.raw(`(${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', ')})`);

/**
 * A table of exactly one row whose `value` deferred triggers raise with every committed
 * write to the tables it watches: a count cached under a value is exact for as long as a
 * statement still reads that value.
 */
export const generationCounter = (name: string) =>
  pgTable(
    name,
    {
      id: integer('id').primaryKey().default(1),
      value: bigint('value', { mode: 'number' }).notNull().default(0),
    },
    (t) => [check(`${name}_single_row`, sql`${t.id} = 1`)],
  );
