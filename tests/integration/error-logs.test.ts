import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../server/testing/test-app';

// Database errors caused by statements that hold personal data (names, e-mail addresses, a
// support request's text, a search word) reach the log with their code and operation only.

const lines: string[] = [];
let testApp: TestApp;
let admin: string;

const PERSONAL = {
  firstName: 'Wilhelmine',
  lastName: 'Zwetschgenbaum',
  email: 'wilhelmine.geheim@example.test',
  searchWord: 'quittengelee',
  supportText: 'Meine Patientin Frau Holunderbeere',
};

beforeAll(async () => {
  testApp = await createTestApp({
    ...(process.env.DATABASE_URL ? { template: inject('templateDatabase') } : {}),
    env: { LOG_LEVEL: 'info' },
    logger: true,
    logStream: { write: (line: string) => void lines.push(line) },
  });
  admin = (await testApp.signIn('SUPERADMIN')).authorization;
  // Statements that fail inside the database, as a broken trigger or a lost table would.
  for (const statement of [
    `CREATE FUNCTION test_fail_write() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN RAISE EXCEPTION 'refused' USING ERRCODE = 'P0001'; END $$`,
    `CREATE TRIGGER test_fail_clients BEFORE INSERT ON clients
     FOR EACH ROW EXECUTE FUNCTION test_fail_write()`,
    `CREATE TRIGGER test_fail_support BEFORE INSERT ON support_messages
     FOR EACH ROW EXECUTE FUNCTION test_fail_write()`,
    `ALTER TABLE client_search_prefixes RENAME TO client_search_prefixes_gone`,
  ]) {
    await testApp.database.db.execute(sql.raw(statement));
  }
});
afterAll(() => testApp.close());

const call = async (method: 'GET' | 'POST', url: string, body?: object) => {
  const res = await testApp.app.inject({
    method,
    url,
    headers: { authorization: admin },
    ...(body ? { payload: body } : {}),
  });
  return res.statusCode;
};

/** The log entries of failed requests. */
const failures = () =>
  lines
    .map(
      (line) => JSON.parse(line) as { msg?: string; operation?: string; error?: { code?: string } },
    )
    .filter((entry) => entry.msg === 'request failed');

describe('error logs', () => {
  it('log the code and operation of a failed statement, never its values', async () => {
    expect(
      await call('POST', '/api/admin/client', {
        firstName: PERSONAL.firstName,
        lastName: PERSONAL.lastName,
        email: PERSONAL.email,
      }),
    ).toBe(500);
    expect(
      await call('POST', '/api/support/message', {
        subject: 'Frage',
        message: PERSONAL.supportText,
        category: 'other',
      }),
    ).toBe(500);
    expect(await call('GET', `/api/admin/client?search=${PERSONAL.searchWord}`)).toBe(500);

    const logged = lines.join('\n');
    for (const value of Object.values(PERSONAL)) expect(logged).not.toContain(value);
    expect(logged).not.toMatch(/Failed query|params:|insert into|select /i);

    expect(failures().map((f) => [f.operation, f.error?.code])).toEqual([
      ['createClient', 'P0001'],
      ['sendSupportMessage', 'P0001'],
      ['listClients', '42P01'],
    ]);
  });
});
