import { and, eq, lt } from 'drizzle-orm';
import { canonicalHash } from '../canonical-json';
import type { Queryable, Tx } from '../db/client';
import { idempotencyKeys } from '../db/schema/index';
import type { Operation } from './contract';
import { HttpProblem } from './problem';
import { inTransaction } from '../db/transaction';

/** The request header, as Node spells header names. */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** How long a key is remembered. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60_000;
const SWEEP_EVERY_MS = 60 * 60_000;

/** Operations whose contract declares the `Idempotency-Key` header honour it. */
export function declaresIdempotencyKey(operation: Operation): boolean {
  const headers = operation.schema.headers as { properties?: Record<string, unknown> } | undefined;
  return !!headers?.properties?.[IDEMPOTENCY_HEADER];
}

/** What identifies "the same request": path parameters, query and body (after validation). */
export function requestHash(request: { params: unknown; query: unknown; body: unknown }): string {
  return canonicalHash({ params: request.params, query: request.query, body: request.body });
}

export interface Outcome {
  status: number;
  body: unknown;
}

export interface IdempotencyScope {
  userId: string;
  operationId: string;
  key: string;
  requestHash: string;
}

export const idempotencyKeyReused = () =>
  new HttpProblem(
    422,
    'idempotency_key_reused',
    'Unprocessable Content',
    'This Idempotency-Key was already used for a different request',
  );

const lastSweep = new WeakMap<Queryable, number>();

/**
 * Runs a request at most once per (user, operation, key) within 24 hours.
 *
 * The key's row is inserted in the same transaction as the request's own writes (`execute`
 * gets that transaction), so the booking and its remembered answer commit together or not
 * at all. A concurrent duplicate blocks on the row's primary key until the first commits,
 * then answers from it; if the first fails, its row rolls back and the duplicate runs.
 * Only successful answers are kept, so a refused request may be retried with the same key.
 */
export async function withIdempotency(
  db: Queryable,
  scope: IdempotencyScope,
  execute: (tx: Tx) => Promise<Outcome>,
  now = new Date(),
): Promise<Outcome & { replayed: boolean }> {
  const cutoff = new Date(now.getTime() - IDEMPOTENCY_RETENTION_MS).toISOString();
  const sweep = (lastSweep.get(db) ?? 0) + SWEEP_EVERY_MS < now.getTime();
  if (sweep) lastSweep.set(db, now.getTime());
  const thisKey = and(
    eq(idempotencyKeys.userId, scope.userId),
    eq(idempotencyKeys.operationId, scope.operationId),
    eq(idempotencyKeys.key, scope.key),
  );
  return inTransaction(db, async (tx) => {
    // Expired keys are forgotten: all of them now and then.
    if (sweep) await tx.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, cutoff));
    // One statement claims the key: a new row, or this key's expired row taken over (its old
    // answer is forgotten). A live row is left alone and returns nothing.
    const claimed = await tx
      .insert(idempotencyKeys)
      // Stamped by the same clock that expires it (the server's, injectable in tests).
      .values({ ...scope, status: null, responseBody: null, createdAt: now.toISOString() })
      .onConflictDoUpdate({
        target: [idempotencyKeys.userId, idempotencyKeys.operationId, idempotencyKeys.key],
        set: {
          requestHash: scope.requestHash,
          status: null,
          responseBody: null,
          createdAt: now.toISOString(),
        },
        setWhere: lt(idempotencyKeys.createdAt, cutoff),
      })
      .returning({ key: idempotencyKeys.key });
    if (claimed.length === 0) {
      const [first] = await tx.select().from(idempotencyKeys).where(thisKey);
      if (!first || first.status === null) {
        // Only possible when the first request's row vanished in between; a retry settles it.
        throw new HttpProblem(
          409,
          'idempotency_key_in_progress',
          'Conflict',
          'A request with this Idempotency-Key is still being processed',
        );
      }
      if (first.requestHash !== scope.requestHash) throw idempotencyKeyReused();
      return { status: first.status, body: first.responseBody, replayed: true };
    }
    const outcome = await execute(tx);
    await tx
      .update(idempotencyKeys)
      .set({ status: outcome.status, responseBody: outcome.body ?? null })
      .where(thisKey);
    return { ...outcome, replayed: false };
  });
}
