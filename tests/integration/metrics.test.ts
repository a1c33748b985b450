import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthTestApp, uniqueEmail, type AuthTestApp } from '../support/auth-client';

// GET /metrics for Prometheus: not public (bearer METRICS_TOKEN; absent without one), and the
// figures an operator alerts on.

const TOKEN = 'metrics-token-for-the-integration-test-0123456789';
let t: AuthTestApp;
beforeAll(async () => {
  t = await createAuthTestApp({
    env: { METRICS_TOKEN: TOKEN },
    rateLimits: { passwordAttempt: { points: 1, durationSeconds: 60 } },
  });
});
afterAll(() => t.close());

const scrape = async () => {
  const res = await t.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(res.statusCode).toBe(200);
  return res.body;
};

/** The value of one series, `name{labels}` written as Prometheus prints it; 0 when absent. */
const value = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
};

describe('GET /metrics', () => {
  it('answers only with the bearer token', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token', `Basic ${TOKEN}`]) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(res.body).not.toContain('sprechstunde_');
    }
    const res = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('does not exist without METRICS_TOKEN', { timeout: 60_000 }, async () => {
    const other = await createAuthTestApp();
    try {
      const res = await other.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(res.statusCode).toBe(404);
    } finally {
      await other.close();
    }
  });

  it('counts requests by operationId or route pattern and status, never by raw URL, with latency buckets', async () => {
    const before = await scrape();
    // Three clients asked for without a session: 401, counted under the operation.
    const series =
      'sprechstunde_http_request_duration_seconds_count{operation="getClient",method="GET",status="401"}';
    for (let i = 0; i < 3; i++) {
      await t.app.inject({ method: 'GET', url: `/api/admin/client/${crypto.randomUUID()}` });
    }
    await t.app.inject({ method: 'GET', url: '/readyz' });
    const after = await scrape();
    expect(value(after, series) - value(before, series)).toBe(3);
    expect(after).toContain(
      'sprechstunde_http_request_duration_seconds_bucket{le="0.05",operation="getClient",method="GET",status="401"}',
    );
    expect(
      value(
        after,
        'sprechstunde_http_request_duration_seconds_count{operation="/readyz",method="GET",status="200"}',
      ),
    ).toBeGreaterThanOrEqual(1);
    // No id reached a label.
    expect(after).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);
  });

  it('shows the database pool and every job queue with depth, age and recent failures', async () => {
    const text = await scrape();
    if (process.env.DATABASE_URL) {
      expect(text).toMatch(/^sprechstunde_db_pool_connections\{state="in_use"\} \d+$/m);
      expect(text).toMatch(/^sprechstunde_db_pool_connections\{state="waiting"\} \d+$/m);
      expect(text).toMatch(/^sprechstunde_db_pool_max \d+$/m);
    }
    for (const queue of ['deliver-communication', 'deliver-auth-mail', 'appointment-reminder']) {
      expect(text).toMatch(
        new RegExp(`^sprechstunde_jobs\\{queue="${queue}",state="created"\\} \\d+$`, 'm'),
      );
      expect(text).toMatch(
        new RegExp(`^sprechstunde_jobs_oldest_due_seconds\\{queue="${queue}"\\} [\\d.]+$`, 'm'),
      );
      expect(text).toMatch(
        new RegExp(`^sprechstunde_jobs_failed_last_hour\\{queue="${queue}"\\} \\d+$`, 'm'),
      );
    }
    expect(text).toContain('# TYPE sprechstunde_job_failures_total counter');
  });

  it('counts queued jobs, sent mails, sign-ins and rate limits hit', async () => {
    const before = await scrape();
    const email = uniqueEmail('metrics');
    // Registration: a code mail is queued, then sent; the sign-in succeeds.
    const init = await t.begin('registration');
    const pc = await t.act(init, 'register_login_identifier', { email });
    const queued = await scrape();
    expect(
      value(queued, 'sprechstunde_jobs{queue="deliver-auth-mail",state="created"}'),
    ).toBeGreaterThanOrEqual(1);
    await t.app.jobs.runDue();
    const pw = await t.act(pc, 'verify_passcode', { code: await t.lastCode(email) });
    await t.act(pw, 'register_password', { new_password: 'richtig-123' });
    // Two wrong passwords: the second is over the (test's) limit of one a minute.
    const login = await t.act(await t.begin('login'), 'continue_with_login_identifier', { email });
    let state = await t.act(login, 'continue_to_password_login');
    state = await t.act(state, 'password_login', { password: 'falsch-1' });
    state = await t.act(state, 'password_login', { password: 'falsch-2' });
    expect(state.status).toBe(429);

    const after = await scrape();
    const delta = (series: string) => value(after, series) - value(before, series);
    expect(
      delta('sprechstunde_messages_total{channel="email",outcome="sent"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(delta('sprechstunde_sign_in_steps_total{flow="registration",outcome="success"}')).toBe(
      1,
    );
    expect(
      delta('sprechstunde_sign_in_steps_total{flow="login",outcome="rate_limit_exceeded"}'),
    ).toBe(1);
    expect(delta('sprechstunde_rate_limit_hits_total{limit="passwordAttempt"}')).toBe(1);
    expect(after).not.toContain(email);
  });
});
