import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { DrizzleQueryError } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { projectRoot } from '../paths';
import { copyPgliteTemplate } from './pglite-template';
import * as schema from './schema/index';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle: the same query API as Db, on one connection. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/**
 * What a query runs on: the database, or a transaction on it. A handler's `deps.db` is a
 * transaction when its request carries an Idempotency-Key (server/http/idempotency.ts).
 */
export type Queryable = Db | Tx;

export interface Database {
  db: Db;
  kind: 'postgres' | 'pglite';
  migrate(): Promise<void>;
  close(): Promise<void>;
}

export const migrationsFolder = path.join(projectRoot, 'server/db/migrations');

export const pgliteExtensions = { btree_gist, pg_trgm };

const MAX_PREPARED_PER_CONNECTION = 500;
const statementNames = new Map<string, string>();
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `s_${createHash('sha1').update(text).digest('base64url')}`;
    if (statementNames.size < 5000) statementNames.set(text, name);
  }
  return name;
}

/**
 * Names every parameterised query after its text, so PostgreSQL parses and plans it once
 * per connection instead of on every call. With our many indexes, planning costs more than
 * executing a page of a list.
 */
class PreparingClient extends pg.Client {
  // Each named statement stays prepared on its connection: keep their number bounded.
  private readonly prepared = new Set<string>();

  constructor(config?: string | pg.ClientConfig) {
    super(config);
    // pg-pool listens for errors only while a client is idle: a connection that drops while
    // checked out (a transaction when the server restarts or fails over) emits 'error' with
    // nobody listening, which ends the process. The query in flight fails on its own (the
    // request answers 503) and the pool discards the dead client when it is released.
    this.on('error', () => {});
  }

  // pg's overloads cannot be restated in a subclass; the arguments pass through unchanged.
  override query(...args: unknown[]): never {
    const [config] = args;
    if (
      config &&
      typeof config === 'object' &&
      typeof (config as { text?: unknown }).text === 'string' &&
      !(config as { name?: unknown }).name
    ) {
      const name = statementName((config as { text: string }).text);
      if (this.prepared.has(name) || this.prepared.size < MAX_PREPARED_PER_CONNECTION) {
        this.prepared.add(name);
        args[0] = { ...(config as object), name };
      }
    }
    return (super.query as (...a: unknown[]) => never)(...args);
  }
}

/** The part of pg.Pool that transactions need (a fake pool in tests). */
export interface TransactionPool {
  connect(): Promise<pg.PoolClient>;
}

/**
 * Runs `db.transaction` on a client this code checks out and always gives back. drizzle-orm
 * 0.45 sends BEGIN before its own try/finally, so a BEGIN that fails (a connection that died
 * while idle, as after a database restart) never returns its client to the pool; after as
 * many such failures as the pool has slots, every call waits for a connection until the
 * process ends (drizzle-orm issues 6023, 6241). A client whose BEGIN or ROLLBACK failed is
 * closed rather than reused: it may still be inside a transaction.
 */
export function releasingTransactions(db: Db, pool: TransactionPool): Db {
  const onClient = new WeakMap<pg.PoolClient, Db>();
  const transaction = async (work: never, config?: never) => {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      let clientDb = onClient.get(client);
      if (!clientDb) {
        clientDb = drizzlePg({ client, schema }) as unknown as Db;
        onClient.set(client, clientDb);
      }
      return await clientDb.transaction(work, config);
    } catch (error) {
      if (error instanceof DrizzleQueryError && /^\s*(begin|rollback)\b/i.test(error.query))
        broken = error;
      throw error;
    } finally {
      client.release(broken);
    }
  };
  return Object.assign(db, { transaction: transaction as unknown as Db['transaction'] });
}

/**
 * Instances that start at once on one database (a first deploy, a release with a migration)
 * migrate one after another: each waits for this session lock, then finds what the one before
 * applied. Drizzle's migrator takes no lock of its own, and racing `CREATE TABLE`s failed all
 * but one start. The lock has a connection of its own, so a pool of one still migrates.
 */
async function withMigrationLock<T>(url: string, migrate: () => Promise<T>): Promise<T> {
  const lock = new pg.Client({ connectionString: url });
  await lock.connect();
  try {
    await lock.query(`SELECT pg_advisory_lock(hashtextextended('sprechstunde:migrate', 0))`);
    return await migrate();
  } finally {
    // Ending the session releases the lock, also when the migration failed.
    await lock.end();
  }
}

export function connectPostgres(url: string, poolSize = 10): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    Client: PreparingClient,
    // While the server is down or restarting, a request waits at most this long for a
    // connection and then answers 503 (http/problem.ts) instead of hanging.
    connectionTimeoutMillis: 5_000,
    // - Timestamps come back in UTC whatever the server's zone (see toIsoInstant).
    // - Generic plans: statements are prepared (PreparingClient) and planning a list query
    //   costs more than running it; LIMIT/OFFSET are written into the statement
    //   (http/paging.ts), a prefix search is an index range of two parameters (db/like.ts).
    // - API calls touch a handful of rows: parallel workers cost more than they save.
    options: [
      '-c TimeZone=UTC',
      '-c plan_cache_mode=force_generic_plan',
      '-c standard_conforming_strings=on',
      '-c max_parallel_workers_per_gather=0',
    ].join(' '),
  });
  // An idle client that errors (e.g. the server restarts) must not crash the process.
  pool.on('error', () => {});
  const db = releasingTransactions(drizzlePg({ client: pool, schema }) as unknown as Db, pool);
  return {
    db,
    kind: 'postgres',
    migrate: () => withMigrationLock(url, () => migratePg(db as never, { migrationsFolder })),
    close: () => pool.end(),
  };
}

export async function connectPglite(dataDir?: string, client?: PGlite): Promise<Database> {
  if (dataDir && !client) copyPgliteTemplate(dataDir);
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const pglite = client ?? (await PGlite.create(dataDir, { extensions: pgliteExtensions }));
  await pglite.exec(`SET TIME ZONE 'UTC'`);
  const db = drizzlePglite({ client: pglite, schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    migrate: () => migratePglite(db as never, { migrationsFolder }),
    close: () => pglite.close(),
  };
}

export async function connectDatabase(config: {
  DATABASE_URL?: string | undefined;
  PGLITE_DIR: string;
  DATABASE_POOL_SIZE: number;
}): Promise<Database> {
  return config.DATABASE_URL
    ? connectPostgres(config.DATABASE_URL, config.DATABASE_POOL_SIZE)
    : connectPglite(config.PGLITE_DIR);
}
