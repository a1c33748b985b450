import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { authFlows } from '../../db/schema/index';
import { FlowLockedError, type FlowStore } from './engine';
import type { HistoryEntry, Stash, StoredFlow } from './types';

/** SQLSTATE 55P03 lock_not_available: another transaction holds the flow row. */
function isLockNotAvailable(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === '55P03') return true;
  }
  return false;
}

type Row = typeof authFlows.$inferSelect;

const fromRow = (row: Row): StoredFlow => ({
  id: row.id,
  name: row.name,
  state: row.state,
  stash: row.stash as Stash,
  history: row.history as HistoryEntry[],
  csrfToken: row.csrfToken,
  version: row.version,
  expiresAt: new Date(row.expiresAt),
});

/** Flows in the `auth_flows` table; each action holds the row lock (FOR UPDATE NOWAIT). */
export function createDbFlowStore(db: Db): FlowStore<Tx> {
  return {
    transaction: (fn) => db.transaction(fn),
    async insert(tx, flow) {
      await tx.insert(authFlows).values({
        id: flow.id,
        name: flow.name as Row['name'],
        state: flow.state,
        stash: flow.stash,
        history: flow.history,
        csrfToken: flow.csrfToken,
        version: flow.version,
        expiresAt: flow.expiresAt.toISOString(),
      });
    },
    async lock(tx, id) {
      try {
        const [row] = await tx
          .select()
          .from(authFlows)
          .where(eq(authFlows.id, id))
          .for('update', { noWait: true });
        return row ? fromRow(row) : null;
      } catch (error) {
        if (isLockNotAvailable(error)) throw new FlowLockedError();
        throw error;
      }
    },
    async update(tx, flow) {
      await tx
        .update(authFlows)
        .set({
          state: flow.state,
          stash: flow.stash,
          history: flow.history,
          csrfToken: flow.csrfToken,
          version: flow.version,
          updatedAt: new Date().toISOString(),
        })
        .where(eq(authFlows.id, flow.id));
    },
  };
}

/**
 * Flows in memory, for the engine's unit tests: a transaction works on a copy that is kept
 * only when the callback succeeds, and a locked flow refuses a second lock.
 */
export function createMemoryFlowStore() {
  let flows = new Map<string, StoredFlow>();
  const locked = new Set<string>();
  const store: FlowStore<{ held: string[] }> & { flows: () => Map<string, StoredFlow> } = {
    flows: () => flows,
    async transaction(fn) {
      const snapshot = new Map([...flows].map(([k, v]) => [k, structuredClone(v)]));
      const tx = { held: [] as string[] };
      try {
        return await fn(tx);
      } catch (error) {
        flows = snapshot;
        throw error;
      } finally {
        for (const id of tx.held) locked.delete(id);
      }
    },
    async insert(_tx, flow) {
      flows.set(flow.id, structuredClone(flow));
    },
    async lock(tx, id) {
      if (locked.has(id)) throw new FlowLockedError();
      locked.add(id);
      tx.held.push(id);
      const flow = flows.get(id);
      return flow ? structuredClone(flow) : null;
    },
    async update(_tx, flow) {
      flows.set(flow.id, structuredClone(flow));
    },
  };
  return store;
}
