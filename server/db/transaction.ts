import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Queryable, Tx } from './client';

/**
 * Runs `work` in a transaction: the one `db` already is, or a new one. A request with an
 * Idempotency-Key hands its handler the key's transaction (server/http/idempotency.ts); a
 * savepoint inside it would cost two more statements and change nothing, since a failure
 * rolls the whole request back either way. Code that catches a failure and goes on in the
 * same transaction needs a savepoint instead, and says so by calling `tx.transaction` itself.
 */
export function inTransaction<T>(db: Queryable, work: (tx: Tx) => Promise<T>): Promise<T> {
  return db instanceof PgTransaction ? work(db) : db.transaction(work);
}
