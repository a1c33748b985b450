import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { HttpProblem } from '../../server/http/problem';
import {
  createRateLimiters,
  type RateLimiter,
  type RateLimitStore,
} from '../../server/http/rate-limit';
import { createTestApp, type TestApp } from '../../server/testing/test-app';
import { expectProblem, expectStatus, unique } from './fixtures';

const onPostgres = !!process.env.DATABASE_URL;

async function problemOf(attempt: Promise<unknown>): Promise<HttpProblem | null> {
  try {
    await attempt;
    return null;
  } catch (error) {
    if (error instanceof HttpProblem) return error;
    throw error;
  }
}

let testApp: TestApp;
beforeAll(async () => {
  testApp = await createTestApp({
    ...(onPostgres ? { template: inject('templateDatabase') } : {}),
    logger: false,
    rateLimits: {
      activationCode: { points: 3, durationSeconds: 60 },
      activationCodeIp: { points: 5, durationSeconds: 60 },
    },
  });
});
afterAll(() => testApp.close());

/** The library's behaviour through our wrapper, on every store this run can reach. */
function limiterContract(name: string, store: () => RateLimitStore) {
  describe(`rate limiter on ${name}`, () => {
    let limiter: RateLimiter;
    beforeAll(() => {
      limiter = createRateLimiters(store(), {
        activationCode: { points: 2, durationSeconds: 30 },
      }).activationCode;
    });

    it('lets the allowed points through, then throws 429 rate_limited with Retry-After', async () => {
      const key = unique('key');
      await limiter.consume(key);
      await limiter.consume(key);
      const problem = await problemOf(limiter.consume(key));
      expect(problem).toMatchObject({ status: 429, code: 'rate_limited' });
      const retryAfter = Number(problem!.headers?.['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(30);
    });

    it('counts every key on its own and forgets a key on reset', async () => {
      const [a, b] = [unique('a'), unique('b')];
      await limiter.consume(a, 2);
      await limiter.consume(b);
      expect(await problemOf(limiter.consume(a))).not.toBeNull();
      await limiter.reset(a);
      await limiter.consume(a);
      await limiter.consume(b);
      expect(await problemOf(limiter.consume(b))).not.toBeNull();
    });
  });
}

limiterContract('memory', () => ({ kind: 'memory' }));
if (onPostgres) {
  // The counters of several instances meet in the rate_limits table of the migrations.
  limiterContract('PostgreSQL', () => ({
    kind: 'postgres',
    pool: (testApp.database.db as unknown as { $client: pg.Pool }).$client,
  }));

  it('shares PostgreSQL counters between limiters built separately (two instances)', async () => {
    const pool = (testApp.database.db as unknown as { $client: pg.Pool }).$client;
    const rules = { activationCode: { points: 2, durationSeconds: 30 } };
    const one = createRateLimiters({ kind: 'postgres', pool }, rules).activationCode;
    const two = createRateLimiters({ kind: 'postgres', pool }, rules).activationCode;
    const key = unique('shared');
    await one.consume(key);
    await two.consume(key);
    expect(await problemOf(one.consume(key))).toMatchObject({ status: 429 });
    const { rows } = await pool.query('SELECT points FROM rate_limits WHERE key = $1', [
      `activationCode:${key}`,
    ]);
    expect(rows[0]?.points).toBeGreaterThanOrEqual(3);
  });
}

describe('POST /api/user/activate with tight limits', () => {
  const call = async (authorization: string, activationCode: string) => {
    const res = await testApp.app.inject({
      method: 'POST',
      url: '/api/user/activate',
      headers: { authorization, 'content-type': 'application/json' },
      payload: JSON.stringify({ activationCode }),
    });
    return {
      status: res.statusCode,
      headers: res.headers,
      body: JSON.parse(res.body),
    };
  };
  const person = async () =>
    `Bearer ${await testApp.tokenFor({ sub: randomUUID(), email: `${unique('p')}@example.test` })}`;

  it('counts wrong codes per person, answers 429 with Retry-After, then per address', async () => {
    const first = await person();
    for (let i = 0; i < 3; i++) expectProblem(await call(first, 'AAAA-BBBB-CCCC'), 400);
    const limited = await call(first, 'AAAA-BBBB-CCCC');
    expectProblem(limited, 429, 'rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);

    // The address has used 4 of 5; a second person from there gets one more try.
    const second = await person();
    expectProblem(await call(second, 'AAAA-BBBB-CCCC'), 400);
    expectProblem(await call(second, 'AAAA-BBBB-CCCC'), 429, 'rate_limited');
  });
});

describe('activation resets the person count', () => {
  it('lets a person who mistyped twice activate and starts them afresh', async () => {
    const local = await createTestApp({
      ...(onPostgres ? { template: inject('templateDatabase') } : {}),
      logger: false,
      rateLimits: { activationCode: { points: 3, durationSeconds: 60 } },
    });
    try {
      const admin = await local.signIn('ADMIN');
      const email = `${unique('staff')}@example.test`;
      const created = await local.app.inject({
        method: 'POST',
        url: '/api/user',
        headers: { authorization: admin.authorization, 'content-type': 'application/json' },
        payload: JSON.stringify({ email, role: 'ONBOARDING_MANAGER' }),
      });
      expect(created.statusCode).toBe(201);
      const { activationCode } = JSON.parse(created.body) as { activationCode: string };
      const authorization = `Bearer ${await local.tokenFor({ sub: randomUUID(), email })}`;
      const activate = (code: string) =>
        local.app.inject({
          method: 'POST',
          url: '/api/user/activate',
          headers: { authorization, 'content-type': 'application/json' },
          payload: JSON.stringify({ activationCode: code }),
        });
      expect((await activate('AAAA-BBBB-CCCC')).statusCode).toBe(400);
      expect((await activate('AAAA-BBBB-CCCC')).statusCode).toBe(400);
      const ok = await activate(activationCode);
      expectStatus({ status: ok.statusCode, body: ok.body, headers: ok.headers }, 200);
      // Counted afresh: three more attempts before 429 (the used code answers 409).
      for (let i = 0; i < 3; i++) expect((await activate(activationCode)).statusCode).toBe(409);
      expect((await activate(activationCode)).statusCode).toBe(429);
    } finally {
      await local.close();
    }
  });
});
