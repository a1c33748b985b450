import type { TestProject } from 'vitest/node';
import pg from 'pg';
import { connectPostgres } from '../../server/db/client';
import { withDatabase } from '../../server/testing/test-database';

/**
 * With DATABASE_URL: migrate one template database per run; each test file clones it
 * (CREATE DATABASE … TEMPLATE), which takes milliseconds. Without it, files use PGlite.
 */
export default async function setup(project: TestProject) {
  const url = process.env.DATABASE_URL;
  if (!url) return;
  const template = `spr_tpl_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${template}`);
  const database = connectPostgres(withDatabase(url, template), 2);
  await database.migrate();
  await database.close();
  project.provide('templateDatabase', template);

  return async () => {
    const { rows } = await admin.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE $1`,
      [`${template}%`],
    );
    for (const { datname } of rows) {
      await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    }
    await admin.end();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    templateDatabase: string;
  }
}
