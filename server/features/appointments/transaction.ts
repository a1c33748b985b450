import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client';

/**
 * Runs `work` in a transaction: the one `db` already is, or a new one. A request with an
 * Idempotency-Key hands its handler the key's transaction (server/http/idempotency.ts); a
 * savepoint inside it would cost two more statements and change nothing, since a failure
 * rolls the whole request back either way.
 */
export function inTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  return db instanceof PgTransaction ? work(db as unknown as Tx) : db.transaction(work);
}
