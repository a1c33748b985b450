import { eq, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client';
import { events } from '../../db/schema/index';
import type { Principal } from '../../http/auth';
import type { components } from '../../../shared/contract/product';

/** Every event type the server records: the contract's list, so each has a German name in the app. */
export type EventType = components['schemas']['EventType'];

export interface EventInput {
  type: EventType;
  entityType: string;
  entityId?: string | null;
  actor?: Principal | null;
  appointmentId?: string | null;
  clientId?: string | null;
  coachId?: string | null;
  changes?: Record<string, unknown>;
  source?: 'business' | 'system';
  important?: boolean;
}

/** Records who did what to which record; call it inside the write's transaction. */
export async function recordEvent(db: Db | Tx, input: EventInput) {
  await db.insert(events).values({
    type: input.type,
    entityType: input.entityType,
    entityId: input.entityId ?? null,
    actorUserId: input.actor?.user?.id ?? null,
    appointmentId: input.appointmentId ?? null,
    clientId: input.clientId ?? null,
    coachId: input.coachId ?? null,
    changes: input.changes ?? {},
    source: input.source ?? 'business',
    important: input.important ?? true,
  });
}

/** The fields of `after` that differ from `before`, for the audit trail. */
export function changedFields<T extends Record<string, unknown>>(
  before: T,
  after: Partial<T>,
): Record<string, { from: unknown; to: unknown }> {
  const out: Record<string, { from: unknown; to: unknown }> = {};
  for (const [key, value] of Object.entries(after)) {
    if (value !== undefined && JSON.stringify(before[key]) !== JSON.stringify(value)) {
      out[key] = { from: before[key] ?? null, to: value };
    }
  }
  return out;
}

/**
 * Updates one row by its id (stamping `updatedAt`) and records the event about it (its
 * `entityId` is that id), in the caller's transaction; hands back the row as it now is.
 */
export async function updateRecorded<
  T extends PgTable & { id: AnyPgColumn; updatedAt: AnyPgColumn },
>(
  tx: Tx,
  table: T,
  id: string,
  values: PgUpdateSetSource<T>,
  event: Omit<EventInput, 'entityId'>,
): Promise<T['$inferSelect']> {
  const [row] = (await tx
    .update(table)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(table.id, id))
    .returning()) as T['$inferSelect'][];
  await recordEvent(tx, { ...event, entityId: id });
  return row!;
}
