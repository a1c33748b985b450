import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { WEBHOOK_TYPES } from '../../shared/contract/enums';
import { keyringOf, openSecret } from '../../server/features/webhooks/secret-box';
import { withDatabase } from '../../server/testing/test-database';
import { startBalancer } from '../support/balancer';
import {
  buildServerProcesses,
  startServerProcess,
  type ServerProcess,
} from '../support/server-process';
import { startSmtpSink } from '../support/smtp-sink';
import { at, plusMinutes } from './fixtures';

// Two instances of the real server (server/main.ts, job workers on) on one PostgreSQL, with
// the settings docs/operations.md says must be the same on each, behind a small balancer that
// follows /readyz: what a practice runs when one instance is not enough.

const root = path.resolve(import.meta.dirname, '../..');
const DRAIN_MS = 1_500;
const CHECK_EVERY_MS = 100;

let database: string;
let url: string;
let sql: pg.Pool;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let balancer: Awaited<ReturnType<typeof startBalancer>>;
let env: Record<string, string>;
const servers: ServerProcess[] = [];
let built: Awaited<ReturnType<typeof buildServerProcesses>>;
let a: ServerProcess;
let b: ServerProcess;
const WEBHOOK_SECRET_KEY = randomBytes(32).toString('base64');
const CLEAR_SECRET = `whsec_${randomBytes(24).toString('base64')}`;

const start = async (extra: Record<string, string> = {}) => {
  const server = await startServerProcess(built.main, { ...env, ...extra });
  servers.push(server);
  return server;
};

interface FlowState {
  status: number;
  name: string;
  csrf_token: string;
  token: string | null;
  actions: Record<string, { href: string }>;
  error?: { code: string };
}

/** One request of a sign-in flow, to the instance at `base`. */
async function flowCall(base: string, href: string, body?: object): Promise<FlowState> {
  const res = await fetch(`${base}/auth${href}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : '',
  });
  return {
    ...((await res.json()) as FlowState),
    status: res.status,
    token: res.headers.get('x-auth-token'),
  };
}

const act = (base: string, state: FlowState, action: string, input: object = {}) => {
  const next = state.actions[action];
  if (!next) throw new Error(`${state.name} offers no ${action}: ${JSON.stringify(state)}`);
  return flowCall(base, next.href, { input_data: input, csrf_token: state.csrf_token });
};

const codeIn = (raw: string) => /Einmalcode f\S*r Sprechstunde: (\d{6})/.exec(raw)?.[1];

/** Waits for the `n`th mail to `address` and answers its sign-in code. */
async function nthCode(address: string, n: number): Promise<string> {
  await expect
    .poll(() => sink.to(address).length, { timeout: 15_000, interval: 50 })
    .toBeGreaterThanOrEqual(n);
  const code = codeIn(sink.to(address)[n - 1]!.raw);
  if (!code) throw new Error(`no code in the mail to ${address}`);
  return code;
}

/** A passcode sign-in whose steps alternate between the instances; answers the session token. */
async function signIn(email: string, [first, second]: [ServerProcess, ServerProcess]) {
  const before = sink.to(email).length;
  const init = await act(
    second.url,
    await flowCall(first.url, '/login'),
    'register_client_capabilities',
    {
      webauthn_available: false,
      webauthn_conditional_mediation_available: false,
      webauthn_platform_authenticator_available: false,
    },
  );
  const passcode = await act(first.url, init, 'continue_with_login_identifier', { email });
  expect(passcode.name, JSON.stringify(passcode)).toBe('passcode_confirmation');
  const done = await act(second.url, passcode, 'verify_passcode', {
    code: await nthCode(email, before + 1),
  });
  expect(done.name, JSON.stringify(done)).toBe('success');
  return done.token!;
}

const api = (
  base: string,
  token: string,
  method: string,
  route: string,
  body?: object,
  headers: Record<string, string> = {},
) =>
  fetch(`${base}/api${route}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });

const kidOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8')) as { kid: string })
    .kid;

let adminToken: string;
const recipients = new Set<string>();

describe.skipIf(!process.env.DATABASE_URL)('two instances on one PostgreSQL', () => {
  beforeAll(async () => {
    built = await buildServerProcesses();
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    database = `${inject('templateDatabase')}_inst${randomBytes(3).toString('hex')}`;
    await admin.query(`CREATE DATABASE ${database} TEMPLATE ${inject('templateDatabase')}`);
    await admin.end();
    url = withDatabase(process.env.DATABASE_URL!, database);
    sql = new pg.Pool({ connectionString: url, max: 3 });
    // A signing secret written before secrets were sealed: both instances seal it at start.
    await sql.query(
      `INSERT INTO webhooks (type, url, secret, active) VALUES ($1, 'http://127.0.0.1:9/hook', $2, false)`,
      [WEBHOOK_TYPES[0], CLEAR_SECRET],
    );
    sink = await startSmtpSink();
    balancer = await startBalancer({ intervalMs: CHECK_EVERY_MS });
    // The settings every instance shares: the public address and issuer (the balancer's, not
    // each instance's port), the secrets, and the key refresh (short here, to see a rotation).
    env = {
      NODE_ENV: 'development',
      DATABASE_URL: url,
      DATABASE_POOL_SIZE: '4',
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      JOBS_WORKERS: 'true',
      SMTP_URL: sink.url,
      PUBLIC_URL: balancer.url,
      AUTH_ISSUER: `${balancer.url}/auth`,
      WEBHOOK_SECRET_KEY,
      RESEARCH_PSEUDONYM_KEY: randomBytes(32).toString('base64'),
      AUTH_KEY_REFRESH_SECONDS: '1',
      SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
    };
    // Both start at once; one of them fills the empty database with the demo data.
    [a, b] = await Promise.all([
      start({ SEED_DEMO_DATA: 'true' }),
      start({ SEED_DEMO_DATA: 'false' }),
    ]);
    await Promise.all([balancer.add(a.url), balancer.add(b.url)]);
  }, 300_000);

  afterAll(async () => {
    for (const server of servers) await server.stop().catch(() => server.kill());
    await balancer?.close();
    await sink?.close();
    await sql?.end();
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  }, 60_000);

  it('seals a stored webhook secret once with the shared key, though both instances start at once', async () => {
    const { rows } = await sql.query<{ secret: string }>(
      `SELECT secret FROM webhooks WHERE type = $1`,
      [WEBHOOK_TYPES[0]],
    );
    expect(rows[0]!.secret.startsWith('wsk1.')).toBe(true);
    expect(
      openSecret(
        keyringOf({ WEBHOOK_SECRET_KEY, WEBHOOK_SECRET_KEY_PREVIOUS: undefined }),
        WEBHOOK_TYPES[0],
        rows[0]!.secret,
      ),
    ).toBe(CLEAR_SECRET);
  });

  it('signs in with a flow whose steps alternate between them; the session works on both', async () => {
    adminToken = await signIn('admin@sprechstunde.demo', [a, b]);
    recipients.add('admin@sprechstunde.demo');
    for (const server of [a, b]) {
      const res = await api(server.url, adminToken, 'POST', '/login');
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ role: 'ADMIN', active: true });
    }
  });

  it('lets one of each overlapping pair win when bookings race over both, and mails each message once', async () => {
    const suffix = randomUUID().slice(0, 8);
    const coachEmail = `coach-${suffix}@example.test`;
    const clientEmail = `client-${suffix}@example.test`;
    recipients.add(coachEmail).add(clientEmail);
    const coach = await api(a.url, adminToken, 'POST', '/coach', {
      firstName: 'Carla',
      lastName: `Coach-${suffix}`,
      email: coachEmail,
    });
    expect(coach.status).toBe(201);
    const client = await api(b.url, adminToken, 'POST', '/admin/client', {
      firstName: 'Klara',
      lastName: `Klient-${suffix}`,
      email: clientEmail,
    });
    expect(client.status).toBe(201);
    const coachId = ((await coach.json()) as { id: string }).id;
    const clientId = ((await client.json()) as { id: string }).id;

    // Five pairs; the two bookings of a pair overlap by 20 minutes and go to different instances.
    const ranges = [0, 1, 2, 3, 4].flatMap((k) => [
      { startDate: at(3, 8 + k), minutes: 40 },
      { startDate: at(3, 8 + k, 20), minutes: 30 },
    ]);
    const answers = await Promise.all(
      ranges.map(({ startDate, minutes }, i) =>
        api(i % 2 === 0 ? a.url : b.url, adminToken, 'POST', '/appointment', {
          clientId,
          coachId,
          appointmentType: 'followup',
          startDate,
          endDate: plusMinutes(startDate, minutes),
        }),
      ),
    );
    const statuses = answers.map((r) => r.status);
    for (let k = 0; k < 5; k++) expect(statuses.slice(2 * k, 2 * k + 2).sort()).toEqual([201, 409]);
    const { rows: overlaps } = await sql.query(
      `SELECT count(*)::int AS n FROM appointments x JOIN appointments y ON x.id < y.id AND x.coach_id = y.coach_id
        AND x.cancelled_at IS NULL AND y.cancelled_at IS NULL
        AND tstzrange(x.start_date, x.end_date) && tstzrange(y.start_date, y.end_date) WHERE x.coach_id = $1`,
      [coachId],
    );
    expect(overlaps[0].n).toBe(0);
    const { rows: booked } = await sql.query(
      `SELECT count(*)::int AS n FROM appointments WHERE coach_id = $1`,
      [coachId],
    );
    expect(booked[0].n).toBe(5);
    console.log(
      JSON.stringify({
        bookingRace: {
          tried: 10,
          created: statuses.filter((s) => s === 201).length,
          refused409: statuses.filter((s) => s === 409).length,
          overlaps: overlaps[0].n,
        },
      }),
    );

    // The bookings' messages (client and coach), sent by the workers of both instances.
    await expect
      .poll(
        async () =>
          (
            await sql.query(
              `SELECT count(*)::int AS n FROM communications WHERE recipient = ANY($1) AND channel = 'email' AND status <> 'sent'`,
              [[coachEmail, clientEmail]],
            )
          ).rows[0].n,
        { timeout: 20_000, interval: 200 },
      )
      .toBe(0);
    const { rows: sent } = await sql.query(
      `SELECT recipient, count(*)::int AS n FROM communications WHERE recipient = ANY($1) AND channel = 'email' GROUP BY recipient`,
      [[coachEmail, clientEmail]],
    );
    for (const row of sent) expect(sink.to(row.recipient).length, row.recipient).toBe(row.n);
    expect(sent.reduce((n, r) => n + r.n, 0)).toBeGreaterThanOrEqual(5);
  });

  it('makes one client of one Idempotency-Key sent to both at once', async () => {
    const lastName = `Einmal-${randomUUID().slice(0, 8)}`;
    const key = randomUUID();
    const answers = await Promise.all(
      [a, b, a, b, a, b].map((server) =>
        api(
          server.url,
          adminToken,
          'POST',
          '/admin/client',
          { firstName: 'Ida', lastName },
          { 'idempotency-key': key },
        ),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 201]);
    const ids = new Set(
      await Promise.all(answers.map(async (r) => ((await r.json()) as { id: string }).id)),
    );
    expect(ids.size).toBe(1);
    const { rows } = await sql.query(
      `SELECT count(*)::int AS n FROM clients WHERE last_name = $1`,
      [lastName],
    );
    expect(rows[0].n).toBe(1);
  });

  it('counts sign-in limits over both: the fourth code mail in a minute is refused, whichever instance asks', async () => {
    const email = 'coach1@sprechstunde.demo';
    recipients.add(email);
    const statuses: number[] = [];
    for (const [i, server] of [a, b, a, b].entries()) {
      const other = i % 2 === 0 ? b : a;
      const init = await act(
        other.url,
        await flowCall(server.url, '/login'),
        'register_client_capabilities',
        {
          webauthn_available: false,
          webauthn_conditional_mediation_available: false,
          webauthn_platform_authenticator_available: false,
        },
      );
      statuses.push(
        (await act(server.url, init, 'continue_with_login_identifier', { email })).status,
      );
    }
    // Three per address and caller a minute (RATE_RULES.passcodeSend): two on each instance
    // would all pass if each counted alone.
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('runs a job that comes due on both instances once', async () => {
    // The reminders of an appointment three days ahead wait for their time; brought forward,
    // both instances' workers see them due at once.
    const { rows: appointment } = await sql.query(
      `SELECT a.id, c.email FROM appointments a JOIN clients c ON c.id = a.client_id WHERE c.email LIKE 'client-%@example.test' AND a.cancelled_at IS NULL LIMIT 1`,
    );
    const { id, email } = appointment[0] as { id: string; email: string };
    const { rowCount } = await sql.query(
      `UPDATE pgboss.job SET start_after = now() WHERE name = 'appointment-reminder' AND state = 'created' AND data->>'appointmentId' = $1`,
      [id],
    );
    expect(rowCount).toBe(2);
    await expect
      .poll(
        async () =>
          (
            await sql.query(
              `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'appointment-reminder' AND data->>'appointmentId' = $1 AND state = 'completed'`,
              [id],
            )
          ).rows[0].n,
        { timeout: 20_000, interval: 200 },
      )
      .toBe(2);
    await expect
      .poll(
        async () =>
          (
            await sql.query(
              `SELECT count(*)::int AS n FROM communications WHERE appointment_id = $1 AND template LIKE 'appointment_reminder%' AND status = 'sent'`,
              [id],
            )
          ).rows[0].n,
        { timeout: 20_000, interval: 200 },
      )
      .toBe(2);
    const { rows } = await sql.query(
      `SELECT count(*)::int AS n FROM communications WHERE appointment_id = $1 AND template LIKE 'appointment_reminder%'`,
      [id],
    );
    expect(rows[0].n).toBe(2);
    recipients.add(email);
    // The periodic jobs (pg-boss cron, both instances schedule them) are sent once a minute.
    const { rows: periodic } = await sql.query(
      `SELECT name, date_trunc('minute', created_on) AS minute, count(*)::int AS n FROM pgboss.job
        WHERE name IN (SELECT name FROM pgboss.schedule) GROUP BY 1, 2 HAVING count(*) > 1`,
    );
    expect(periodic).toEqual([]);
  });

  it(
    'honours on one instance a signing key that a rotation made on the other',
    { timeout: 90_000 },
    async () => {
      const oldKid = kidOf(adminToken);
      const rotation = spawn(process.execPath, [built.rotateKey], {
        cwd: root,
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      rotation.stdout.on('data', (c: Buffer) => (output += c.toString()));
      rotation.stderr.on('data', (c: Buffer) => (output += c.toString()));
      const code = await new Promise<number | null>((resolve) => rotation.once('exit', resolve));
      expect(code, output).toBe(0);
      const kid = /New signing key (\S+):/.exec(output)?.[1];
      // Published at once, signing after twice the refresh interval (2 s).
      await expect
        .poll(
          async () =>
            (
              (await (await fetch(`${b.url}/auth/.well-known/jwks.json`)).json()) as {
                keys: Array<{ kid: string }>;
              }
            ).keys.map((k) => k.kid),
          {
            timeout: 5_000,
            interval: 100,
          },
        )
        .toContain(kid);
      await new Promise((resolve) => setTimeout(resolve, 2_200));
      const fresh = await signIn('admin@sprechstunde.demo', [a, a]);
      expect(kidOf(fresh)).toBe(kid);
      expect(kidOf(fresh)).not.toBe(oldKid);
      for (const token of [fresh, adminToken]) {
        const res = await api(b.url, token, 'POST', '/login');
        expect(res.status).toBe(200);
      }
      adminToken = fresh;
    },
  );

  it('each mail went out once', async () => {
    const { rows } = await sql.query(
      `SELECT recipient, count(*) FILTER (WHERE status = 'sent')::int AS sent, count(*)::int AS n FROM communications WHERE recipient = ANY($1) AND channel = 'email' GROUP BY recipient`,
      [[...recipients]],
    );
    const counts = rows.map((r) => ({
      recipient: r.recipient,
      stored: r.n,
      sent: r.sent,
      received: sink.to(r.recipient).length,
    }));
    console.log(JSON.stringify({ mails: counts }));
    for (const c of counts) expect(c.received, c.recipient).toBe(c.sent);
  });

  it('loses no request over rolling restarts under steady load behind a balancer that follows /readyz', async () => {
    const statuses = new Map<number | string, number>();
    let load = true;
    let requests = 0;
    const worker = async () => {
      while (load) {
        requests++;
        const status = await fetch(`${balancer.url}/api/coach?limit=5`, {
          headers: { authorization: `Bearer ${adminToken}` },
        }).then(
          async (r) => {
            await r.arrayBuffer();
            return r.status;
          },
          (error: Error) => error.message,
        );
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    };
    const workers = Array.from({ length: 4 }, worker);
    const restarts = Number(process.env.INSTANCES_RESTARTS ?? 4);
    const stops: string[] = [];
    for (let i = 0; i < restarts; i++) {
      // One instance after the other: a new one starts while the old one drains and stops.
      const old = i % 2 === 0 ? a : b;
      const [fresh, how] = await Promise.all([start(), old.stop()]);
      stops.push(how);
      balancer.remove(old.url);
      await balancer.add(fresh.url);
      if (i % 2 === 0) a = fresh;
      else b = fresh;
      await expect.poll(() => balancer.readyCount(), { timeout: 10_000, interval: 50 }).toBe(2);
    }
    load = false;
    await Promise.all(workers);
    const failed = requests - (statuses.get(200) ?? 0);
    console.log(
      JSON.stringify({
        rollingRestarts: {
          restarts,
          requests,
          failed,
          statuses: Object.fromEntries(statuses),
          balancerErrors: balancer.errors,
        },
      }),
    );
    expect(stops).toEqual(Array(restarts).fill('exit 0'));
    expect(balancer.errors).toEqual([]);
    expect(Object.fromEntries(statuses)).toEqual({ 200: requests });
  }, 600_000);
});
