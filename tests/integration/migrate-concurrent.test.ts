import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { connectPostgres } from '../../server/db/client';
import { withDatabase } from '../../server/testing/test-database';

// Several instances started at once on an empty database (a first deploy, or a release with a
// migration) each migrate at start: none may fail because another is creating the same tables.

const url = process.env.DATABASE_URL;

describe.skipIf(!url)('migrations from several instances at once', () => {
  const name = `spr_migrate_${process.pid}_${randomBytes(4).toString('hex')}`;
  afterAll(async () => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });

  it('three instances migrate one empty database at the same time: all succeed, each migration applied once', async () => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    // Pools of one connection: the lock must not hold the connection the migration needs.
    const instances = [1, 2, 3].map(() => connectPostgres(withDatabase(url!, name), 1));
    try {
      const outcomes = await Promise.allSettled(instances.map((instance) => instance.migrate()));
      expect(outcomes.map((o) => (o.status === 'rejected' ? String(o.reason) : 'ok'))).toEqual([
        'ok',
        'ok',
        'ok',
      ]);
      const check = new pg.Client({ connectionString: withDatabase(url!, name) });
      await check.connect();
      const { rows } = await check.query<{ all: number; distinct: number }>(
        'SELECT count(*)::int AS all, count(DISTINCT hash)::int AS distinct FROM drizzle.__drizzle_migrations',
      );
      await check.end();
      expect(rows[0]!.all).toBeGreaterThan(0);
      expect(rows[0]!.all).toBe(rows[0]!.distinct);
    } finally {
      await Promise.all(instances.map((instance) => instance.close()));
    }
  }, 120_000);
});
