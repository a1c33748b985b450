import { and, asc, eq, inArray, sql, desc } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { clinicalAccessLog, users, type DocumentType } from '../../db/schema/index';
import type { Principal } from '../../http/auth';
import { batchOffenders, batchRefused } from '../../http/batch';
import { inTransaction } from '../../db/transaction';
import { tableOf } from './documents';

/**
 * Review completes signed documents (sent → completed), all or nothing, with the billing
 * batches' answer: rows locked in id order (overlapping batches wait instead of deadlocking)
 * and checked after the lock, so the later of two batches refuses what the first completed.
 */
export async function completeDocuments(
  db: Db,
  principal: Principal,
  type: DocumentType,
  ids: string[],
  now: Date,
) {
  const table = tableOf(type);
  return inTransaction(db, async (tx) => {
    const rows = await tx
      .select({ id: table.id, status: table.status })
      .from(table)
      .where(inArray(table.id, ids))
      .orderBy(asc(table.id))
      .for('update');
    const byId = new Map(rows.map((r) => [r.id, r]));
    const offenders = batchOffenders(ids, byId, (row) => row.status === 'sent', {
      notFound: 'No document with this id',
      notAllowed: (row) => `A ${row.status} document cannot be completed`,
    });
    if (offenders.length) {
      throw batchRefused(
        `${offenders.length} of ${ids.length} documents cannot be completed; nothing changed`,
        offenders,
      );
    }
    await tx
      .update(table)
      .set({
        status: 'completed',
        completedAt: now.toISOString(),
        completedById: principal.user?.id ?? null,
        updatedAt: sql`now()`,
      })
      .where(and(inArray(table.id, ids), eq(table.status, 'sent')));
    return ids.length;
  });
}

/** Who read which document of a client, newest first (no content). */
export async function accessLogOf(db: Db, clientId: string, q: { page?: number; limit?: number }) {
  const limit = q.limit ?? 10;
  const rows = await db
    .select({
      log: clinicalAccessLog,
      email: users.email,
      role: users.role,
      total: sql<string>`count(*) OVER ()`,
    })
    .from(clinicalAccessLog)
    .leftJoin(users, eq(users.id, clinicalAccessLog.userId))
    .where(eq(clinicalAccessLog.clientId, clientId))
    .orderBy(desc(clinicalAccessLog.at), desc(clinicalAccessLog.id))
    .limit(limit)
    .offset(((q.page ?? 1) - 1) * limit);
  return {
    entries: rows.map((r) => ({
      id: r.log.id,
      at: new Date(r.log.at).toISOString(),
      user: r.log.userId ? { id: r.log.userId, email: r.email ?? '', role: r.role! } : null,
      documentType: r.log.documentType,
      documentId: r.log.documentId,
    })),
    itemCount: rows.length ? Number(rows[0]!.total) : 0,
  };
}
