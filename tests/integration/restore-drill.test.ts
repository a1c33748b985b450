import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { and, asc, eq, isNull, lt, notExists, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countTables } from '../../server/backup/counts';
import { restorePglite, backupPglite } from '../../server/backup/pglite';
import { backupPostgres, restorePostgres } from '../../server/backup/postgres';
import { connectPglite, connectPostgres, type Database } from '../../server/db/client';
import { appointmentSummaries, appointments, clients, coaches } from '../../server/db/schema/index';
import { verifySignedDocuments } from '../../server/features/clinical/index';
import { seed } from '../../server/seed/seed';
import { withDatabase } from '../../server/testing/test-database';
import { createAuthTestApp, type AuthTestApp } from '../support/auth-client';
import { SOAP, summaryUrl } from './clinical-support';

// The restore drill an operator runs: demo data → backup → restore into a fresh database →
// the copy holds the same rows, its signed documents verify, and people can sign in and book.
let source: AuthTestApp;
let restored: AuthTestApp;
let dir: string;
let sourceCounts: Record<string, number>;
let restoredDatabase: Database;
let fresh: string | undefined;
const signed: string[] = [];
let coachToken: string;
/** Signed documents the demo data brings along. */
let seededSigned: number;

const urlOf = (database: Database) =>
  ((database.db as unknown as { $client: pg.Pool }).$client.options as { connectionString: string })
    .connectionString;
const queryOf = (database: Database) => async (text: string) =>
  ((await database.db.execute(text as never)) as unknown as { rows: Record<string, unknown>[] })
    .rows;

async function signInByPasscode(app: AuthTestApp, email: string) {
  const init = await app.begin('login');
  const pc = await app.act(init, 'continue_with_login_identifier', { email });
  const done = await app.act(pc, 'verify_passcode', { code: await app.lastCode(email) });
  expect(done.name).toBe('success');
  return `Bearer ${String(done.headers['x-auth-token'])}`;
}

async function call(
  app: AuthTestApp,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  authorization: string,
  body?: unknown,
) {
  const res = await app.app.inject({
    method,
    url,
    headers: {
      authorization,
      'idempotency-key': randomUUID(),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  return { status: res.statusCode, body: res.body ? res.json() : null };
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'spr-restore-drill-'));
  source = await createAuthTestApp();
  seededSigned = (await seed(source.database.db)).counts.signedDocuments;

  // Signed documentation to carry over besides the demo's: two summaries of coach 1's held
  // appointments that have none yet, one amended.
  coachToken = await signInByPasscode(source, 'coach1@sprechstunde.demo');
  const [coach] = await source.database.db
    .select()
    .from(coaches)
    .where(eq(coaches.email, 'coach1@sprechstunde.demo'));
  const held = await source.database.db
    .select({ id: appointments.id })
    .from(appointments)
    .where(
      and(
        eq(appointments.coachId, coach!.id),
        lt(appointments.endDate, new Date().toISOString()),
        isNull(appointments.cancelledAt),
        eq(appointments.noShow, false),
        notExists(
          source.database.db
            .select({ one: sql`1` })
            .from(appointmentSummaries)
            .where(eq(appointmentSummaries.appointmentId, appointments.id)),
        ),
      ),
    )
    .orderBy(asc(appointments.startDate))
    .limit(2);
  for (const { id } of held) {
    expect((await call(source, 'POST', summaryUrl(id), coachToken, { content: SOAP })).status).toBe(
      201,
    );
    const sent = await call(source, 'PUT', summaryUrl(id), coachToken, { status: 'sent' });
    expect(sent.status).toBe(200);
    signed.push(id);
  }
  const amended = await call(source, 'POST', `${summaryUrl(signed[0]!)}/amendments`, coachToken, {
    reason: 'Ergänzung',
    text: 'Nachtrag zur Sitzung',
  });
  expect(amended.status).toBe(201);
  sourceCounts = await countTables(queryOf(source.database));

  if (source.database.kind === 'postgres') {
    const url = urlOf(source.database);
    const backup = await backupPostgres({ url, dir });
    fresh = `${new URL(url).pathname.slice(1)}_restored`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${fresh}`);
    await admin.end();
    await restorePostgres({ url: withDatabase(url, fresh), file: backup.file });
    restoredDatabase = connectPostgres(withDatabase(url, fresh), 5);
  } else {
    const pglite = (source.database.db as unknown as { $client: PGlite }).$client;
    const backup = await backupPglite({ pglite, dir });
    const { pglite: copy } = await restorePglite({ file: backup.file });
    restoredDatabase = await connectPglite(undefined, copy);
  }
  restored = await createAuthTestApp({ database: restoredDatabase });
  // The embedded database seeds and starts slower than PostgreSQL (WebAssembly).
}, 180_000);

afterAll(async () => {
  await restored?.close();
  await source?.close();
  if (fresh) {
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${fresh} WITH (FORCE)`);
    await admin.end();
  }
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('restore drill', () => {
  it('restores every table with the same number of rows', async () => {
    const counts = await countTables(queryOf(restoredDatabase));
    expect(Object.keys(counts).length).toBeGreaterThan(50);
    expect(counts).toEqual(sourceCounts);
    expect(counts['public.appointments']).toBeGreaterThan(500);
    expect(counts['public.appointment_summaries']).toBeGreaterThan(2);
  });

  it('verifies the hash of every signed document on the restored copy', async () => {
    const check = await verifySignedDocuments(restoredDatabase.db);
    expect(check).toEqual({ documents: seededSigned + 2, amendments: 1, broken: [] });
    const read = await call(
      restored,
      'GET',
      summaryUrl(signed[0]!),
      await signInByPasscode(restored, 'admin@sprechstunde.demo'),
    );
    expect(read.status).toBe(200);
    expect(read.body.signature.verified).toBe(true);
    expect(read.body.amendments).toHaveLength(1);
  });

  it('signs people in and books an appointment on the restored copy', async () => {
    // A session from before the backup still holds: the provider's keys and sessions came along.
    expect((await call(restored, 'POST', '/api/login', coachToken)).body).toMatchObject({
      role: 'COACH',
    });
    const admin = await signInByPasscode(restored, 'admin@sprechstunde.demo');
    expect((await call(restored, 'POST', '/api/login', admin)).body).toMatchObject({
      role: 'ADMIN',
      active: true,
    });

    const [client] = await restored.database.db.select({ id: clients.id }).from(clients).limit(1);
    const [coach] = await restored.database.db.select({ id: coaches.id }).from(coaches).limit(1);
    // A Tuesday two years ahead, before anything the demo data books.
    const start = new Date();
    start.setUTCFullYear(start.getUTCFullYear() + 2);
    start.setUTCDate(start.getUTCDate() + ((9 - start.getUTCDay()) % 7));
    start.setUTCHours(9, 0, 0, 0);
    const booked = await call(restored, 'POST', '/api/appointment', admin, {
      appointmentType: 'followup',
      clientId: client!.id,
      coachId: coach!.id,
      startDate: start.toISOString(),
      endDate: new Date(start.getTime() + 30 * 60_000).toISOString(),
      // Used only when that Tuesday is a public holiday.
      availabilityOverrideReason: 'Testtermin',
    });
    expect(booked.status).toBe(201);
    const [row] = await restored.database.db
      .select()
      .from(appointments)
      .where(eq(appointments.id, booked.body.id));
    expect(row?.clientId).toBe(client!.id);
  });
});
