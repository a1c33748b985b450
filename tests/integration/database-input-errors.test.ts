import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { allHandlers } from '../../server/features/index';
import { createTestApp, type TestApp } from '../../server/testing/test-app';

// Whatever input gets past the contract and the handlers' checks and is then refused by
// PostgreSQL as a value it cannot take (class 22, data exception; class 54, program limit)
// is the caller's bad request: 400, not 500. One operation's handler here hands the caller's
// text to the database as the statement `kind` says.

const STATEMENTS = {
  integer: (text: string) => sql`SELECT ${text}::int`,
  date: (text: string) => sql`SELECT ${text}::date`,
  repeat: (text: string) => sql`SELECT repeat('x', ${text}::int * 1000000)`,
};

let testApp: TestApp;
let admin: string;

beforeAll(async () => {
  testApp = await createTestApp({
    ...(process.env.DATABASE_URL ? { template: inject('templateDatabase') } : {}),
    handlers: {
      ...allHandlers,
      // Its query parameter `query` reads "<kind>:<text>".
      async searchCoaches({ query, deps }) {
        const [kind, text] = query.query.split(':') as [keyof typeof STATEMENTS, string];
        await deps.db.execute(STATEMENTS[kind](text));
        return { coaches: [] };
      },
    },
  });
  admin = (await testApp.signIn('ADMIN')).authorization;
});
afterAll(() => testApp.close());

describe('values the database refuses', () => {
  it.each([
    ['not a number (22P02)', 'integer:zwölf'],
    ['a number out of range (22003)', 'integer:99999999999'],
    ['a date that does not exist (22008)', 'date:2030-02-30'],
    ['a result too large to build (54000)', 'repeat:2000'],
  ])('%s answers 400', async (_name, value) => {
    const res = await testApp.app.inject({
      method: 'GET',
      url: `/api/coach/search?query=${encodeURIComponent(value)}`,
      headers: { authorization: admin },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ status: 400, code: 'validation_failed' });
  });

  it('answers a statement that works', async () => {
    const res = await testApp.app.inject({
      method: 'GET',
      url: '/api/coach/search?query=integer:12',
      headers: { authorization: admin },
    });
    expect(res.statusCode, res.body).toBe(200);
  });
});
