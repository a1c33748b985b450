import { eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Db, Tx } from '../../db/client';
import * as schema from '../../db/schema/index';
import { authFlows } from '../../db/schema/index';
import { FlowLockedError, type FlowStore } from './engine';
import type { HistoryEntry, Stash, StoredFlow } from './types';
import { inTransaction } from '../../db/transaction';

/** SQLSTATE 55P03 lock_not_available: another transaction holds the flow row. */
function isLockNotAvailable(error: unknown): boolean {
  for (
    let e = error as { code?: unknown; cause?: unknown } | undefined;
    e;
    e = e.cause as typeof e
  ) {
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

/**
 * Flows in the `auth_flows` table. On PostgreSQL the lean store below; on PGlite (one
 * connection, transactions run one at a time) each action is a transaction holding the row
 * lock (FOR UPDATE NOWAIT).
 */
export function createDbFlowStore(db: Db): FlowStore<Tx> {
  const client = (db as { $client?: unknown }).$client;
  return client instanceof pg.Pool ? createPgFlowStore(client) : createTransactionFlowStore(db);
}

function createTransactionFlowStore(db: Db): FlowStore<Tx> {
  return {
    transaction: (fn) => inTransaction(db, fn),
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

/** The advisory lock of a flow: 64 bits of its (random) id. */
export function flowLockKey(id: string): string {
  return BigInt.asIntN(64, BigInt(`0x${id.replace(/-/g, '').slice(0, 16)}`)).toString();
}

const FLOW_COLUMNS = 'id, name, state, stash, history, csrf_token, version, expires_at';

/** Takes the flow's advisory lock (if the flow exists) and reads it, in one round trip. */
const CLAIM = `SELECT pg_try_advisory_lock($2::bigint) AS locked, ${FLOW_COLUMNS} FROM auth_flows WHERE id = $1`;

const INSERT = `INSERT INTO auth_flows (${FLOW_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`;

/** Writes the step back, unless another step wrote first (version). */
const UPDATE = `UPDATE auth_flows SET state = $2, stash = $3, history = $4, csrf_token = $5, version = $6, updated_at = now()
WHERE id = $1 AND version = $7`;

/** The same, and the lock given back, in one round trip (no transaction was needed). */
const UPDATE_UNLOCK = `WITH written AS (${UPDATE} RETURNING 1)
SELECT (SELECT count(*) FROM written)::int AS written, pg_advisory_unlock($8::bigint) AS unlocked`;

const UNLOCK = 'SELECT pg_advisory_unlock($1::bigint)';

interface PgFlowRow {
  locked?: boolean;
  id: string;
  name: string;
  state: string;
  stash: Stash;
  history: HistoryEntry[];
  csrf_token: string;
  version: number;
  expires_at: Date | string;
}

/** One step's connection and what it holds; reused by later steps. */
interface Lane {
  client: pg.PoolClient | null;
  /** BEGIN, sent before the first statement of an action (none for steps that need none). */
  began: Promise<unknown> | null;
  /** The advisory lock held (its key). */
  lockKey: string | null;
  /** The flow to store when the step ends. */
  write: { kind: 'insert' | 'update'; flow: StoredFlow } | null;
  /** What actions get as `tx`: drizzle on this lane's connection, in a transaction begun lazily. */
  tx: Tx;
}

/**
 * Flows on PostgreSQL with as few round trips as a step allows.
 *
 * - A step takes its own pool connection, claims the flow with one statement (the row read
 *   together with a session advisory lock on the flow's id, pg_try_advisory_lock: refused at
 *   once while another step, in any process, holds it) and gives the lock back after its
 *   write. The lock lives with the connection: a crashed process loses it with its socket.
 * - Actions get a drizzle handle on that connection whose first statement opens the
 *   transaction (BEGIN); the flow is written at the end in it, then COMMIT and unlock.
 *   Steps that touch nothing but the flow (the preflight, choosing a method, going back)
 *   need no transaction at all: claim, then one statement that writes and unlocks.
 * - The write-back also checks the version it read, so a write that lost a race is refused
 *   (and its transaction rolled back) instead of overwriting.
 * - A new flow is one INSERT (inside the transaction when its first state's hook used one).
 * - The store's statements are named (prepared once per connection): PostgreSQL parses and
 *   plans them once, not on every step (~10–20 % of its CPU for a claim + write).
 */
function createPgFlowStore(pool: pg.Pool): FlowStore<Tx> {
  const lanes = new WeakMap<object, Lane>();
  const idle: Lane[] = [];

  function newLane(): Lane {
    const lane = { client: null, began: null, lockKey: null, write: null } as unknown as Lane;
    const lazy = {
      async query(config: unknown, values?: unknown) {
        const client = lane.client;
        if (!client) throw new Error('flow store: a statement outside a flow step');
        lane.began ??= client.query('BEGIN');
        await lane.began;
        return client.query(config as pg.QueryConfig, values as unknown[]);
      },
    };
    lane.tx = drizzle({ client: lazy as unknown as pg.Pool, schema }) as unknown as Tx;
    lanes.set(lane.tx, lane);
    return lane;
  }

  const laneOf = (tx: Tx) => {
    const lane = lanes.get(tx);
    if (!lane?.client) throw new Error('flow store: unknown transaction');
    return lane;
  };

  const stored = (flow: StoredFlow) => [
    flow.state,
    JSON.stringify(flow.stash),
    JSON.stringify(flow.history),
    flow.csrfToken,
    flow.version,
  ];
  // The version read when the flow was claimed.
  const updateValues = (flow: StoredFlow) => [flow.id, ...stored(flow), flow.version - 1];

  /** Stores the step's flow and ends its transaction and lock. */
  async function commit(lane: Lane) {
    const client = lane.client!;
    const { write, lockKey } = lane;
    if (write?.kind === 'insert') {
      await client.query({
        name: 'auth_flow_insert',
        text: INSERT,
        values: [
          write.flow.id,
          write.flow.name,
          ...stored(write.flow),
          write.flow.expiresAt.toISOString(),
        ],
      });
    } else if (write && (lane.began || !lockKey)) {
      const done = await client.query({
        name: 'auth_flow_update',
        text: UPDATE,
        values: updateValues(write.flow),
      });
      if (done.rowCount !== 1) throw new FlowLockedError();
    } else if (write && lockKey) {
      const { rows } = await client.query<{ written: number }>({
        name: 'auth_flow_update_unlock',
        text: UPDATE_UNLOCK,
        values: [...updateValues(write.flow), lockKey],
      });
      lane.lockKey = null;
      if (rows[0]?.written !== 1) throw new FlowLockedError();
    }
    if (lane.began) {
      lane.began = null;
      // The key is our own number: safe to write into the statement (one round trip).
      await client.query(
        lane.lockKey ? `COMMIT; SELECT pg_advisory_unlock(${lane.lockKey})` : 'COMMIT',
      );
      lane.lockKey = null;
    } else if (lane.lockKey) {
      await client.query({ name: 'auth_flow_unlock', text: UNLOCK, values: [lane.lockKey] });
      lane.lockKey = null;
    }
  }

  /** After a failure: roll back and give the lock back. */
  async function abort(lane: Lane) {
    const client = lane.client!;
    if (lane.began) {
      lane.began = null;
      await client.query('ROLLBACK');
    }
    if (lane.lockKey) {
      await client.query({ name: 'auth_flow_unlock', text: UNLOCK, values: [lane.lockKey] });
      lane.lockKey = null;
    }
  }

  return {
    async transaction(fn) {
      const lane = idle.pop() ?? newLane();
      const client = await pool.connect();
      lane.client = client;
      // A connection that could not be cleaned up is closed (its lock and transaction end).
      let unusable: Error | undefined;
      try {
        const result = await fn(lane.tx);
        await commit(lane);
        return result;
      } catch (error) {
        await abort(lane).catch((cleanup: unknown) => {
          unusable = cleanup instanceof Error ? cleanup : new Error(String(cleanup));
        });
        throw error;
      } finally {
        client.release(unusable);
        lane.client = null;
        lane.began = null;
        lane.lockKey = null;
        lane.write = null;
        if (idle.length < 64) idle.push(lane);
      }
    },
    async insert(tx, flow) {
      laneOf(tx).write = { kind: 'insert', flow };
    },
    async lock(tx, id) {
      const lane = laneOf(tx);
      const key = flowLockKey(id);
      const { rows } = await lane.client!.query<PgFlowRow>({
        name: 'auth_flow_claim',
        text: CLAIM,
        values: [id, key],
      });
      const row = rows[0];
      if (!row) return null;
      if (!row.locked) throw new FlowLockedError();
      lane.lockKey = key;
      return {
        id: row.id,
        name: row.name,
        state: row.state,
        stash: row.stash,
        history: row.history,
        csrfToken: row.csrf_token,
        version: row.version,
        expiresAt: new Date(row.expires_at),
      };
    },
    async update(tx, flow) {
      laneOf(tx).write = { kind: 'update', flow };
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
