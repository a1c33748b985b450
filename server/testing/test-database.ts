import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { connectPglite, connectPostgres, type Database } from '../db/client';

/** The same server's connection string, naming another database. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/**
 * A fresh, migrated database for one test file or test server: a clone of the run's
 * template on PostgreSQL (DATABASE_URL), or an in-memory PGlite.
 */
export async function createTestDatabase(template?: string): Promise<Database> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const database = await connectPglite();
    await database.migrate();
    return database;
  }
  const name = `${template ?? `spr_t_${process.pid}`}_f${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(
      template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`,
    );
  } finally {
    await admin.end();
  }
  const database = connectPostgres(withDatabase(url, name), 5);
  if (!template) await database.migrate();
  const close = database.close;
  return {
    ...database,
    close: async () => {
      await close();
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
      await cleanup.end();
    },
  };
}
