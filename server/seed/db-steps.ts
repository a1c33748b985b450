import type { PgTable } from 'drizzle-orm/pg-core';
import type { Tx } from '../db/client';
import type { users } from '../db/schema/index';
import type { Principal } from '../http/auth';

type UserRow = typeof users.$inferInsert;

/**
 * A demo account as the caller of a feature function: the seed acts as the people the
 * history names (the coach who signs, the admin who approves), never as a system user.
 */
export function actingAs(user: UserRow): Principal {
  return {
    subject: user.authSubject ?? user.id!,
    email: user.email,
    role: user.role!,
    active: true,
    user: { ...user, coachId: user.coachId ?? null } as Principal['user'],
  };
}

/**
 * Multi-row inserts answering the rows written; chunks keep each statement under the
 * bind-parameter limit.
 */
export async function insertInChunks<T extends PgTable>(
  tx: Tx,
  table: T,
  rows: T['$inferInsert'][],
): Promise<T['$inferSelect'][]> {
  const out: T['$inferSelect'][] = [];
  const columns = rows[0] ? Object.keys(rows[0]).length + 4 : 1;
  const perStatement = Math.max(1, Math.floor(30_000 / columns));
  for (let i = 0; i < rows.length; i += perStatement) {
    const written = await tx
      .insert(table)
      .values(rows.slice(i, i + perStatement) as never)
      .returning();
    out.push(...(written as T['$inferSelect'][]));
  }
  return out;
}
