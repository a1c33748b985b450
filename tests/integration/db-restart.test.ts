import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  outageBurst,
  restartUnderLoad,
  startDrill,
  type Drill,
  type DrillServer,
} from '../../server/testing/outage-drill';
import { scratchPostgresUnavailable } from '../../server/testing/scratch-postgres';

// the real server (server/main.ts, job workers on) on a PostgreSQL
// cluster of its own, which the test restarts and stops while admins create clients.

const unavailable = scratchPostgresUnavailable();
if (unavailable)
  console.warn(`db-restart: skipped, no throwaway PostgreSQL cluster: ${unavailable}`);

describe.skipIf(unavailable)('a database restart or outage', () => {
  let drill: Drill;
  let server: DrillServer;
  beforeAll(async () => {
    drill = await startDrill();
    server = await drill.startServer();
  }, 120_000);
  afterAll(async () => {
    await drill?.close();
  }, 60_000);

  /**
   * Restarts under load and checks it was survived, and logged as one outage: at most one
   * error line (before, each refused request and job poll wrote one: 467 in a drill).
   */
  const restartLogged = async (mode: 'fast' | 'immediate') => {
    const loggedBefore = server.logged().length;
    expectSurvived(await restartUnderLoad(drill, server, { mode }));
    const errors = server
      .logged()
      .slice(loggedBefore)
      .filter((e) => e.level >= 50);
    expect(errors.map((e) => e.msg)).toEqual(
      errors.length ? ['database unreachable: requests are answered 503 until it is back'] : [],
    );
  };

  const expectSurvived = (result: Awaited<ReturnType<typeof restartUnderLoad>>) => {
    expect(server.exited(), `the server process ended:\n${server.output()}`).toBeNull();
    expect(result.alive).toBe(true);
    expect(result.acknowledged).toBeGreaterThan(0);
    expect(result.missing, 'acknowledged writes missing from the database').toBe(0);
    expect(result.recoveryMs, JSON.stringify(result)).not.toBeNull();
    expect(result.recoveryMs!).toBeLessThan(10_000);
    // Nothing answered 500 or went unanswered: a refused write is a 503 the caller may retry.
    expect(Object.keys(result.statuses).filter((s) => s !== '201' && s !== '503')).toEqual([]);
  };

  it('survives pg_ctl restart -m fast under a write load: no acknowledged write lost, answering again within seconds', async () => {
    await restartLogged('fast');
  }, 60_000);

  it('survives a crash-like restart (-m immediate) the same way', async () => {
    await restartLogged('immediate');
  }, 60_000);

  it('answers 503 service_unavailable with Retry-After while the database is down, and 2xx once it is back', async () => {
    // An outage an earlier test began (a job's or the mail probe's query during its restart)
    // is closed first, so the lines below are this outage's own.
    const count = (msg: string) => server.logged().filter((e) => e.msg === msg).length;
    await expect
      .poll(
        () =>
          count('database unreachable: requests are answered 503 until it is back') ===
          count('database reachable again'),
        {
          timeout: 10_000,
        },
      )
      .toBe(true);
    const loggedBefore = server.logged().length;
    const burst = await outageBurst(drill, server, { requests: 30, concurrency: 5 });
    expect(burst.byStatus).toEqual({ 503: 30 });
    expect(burst.withRetryAfter).toBe(30);
    expect(burst.codes).toEqual(['service_unavailable']);
    await expect
      .poll(
        async () =>
          (
            await fetch(`${server.url}/api/admin/client`, {
              headers: { authorization: server.authorization },
            })
          ).status,
        { timeout: 10_000, interval: 200 },
      )
      .toBe(200);
    expect(server.exited()).toBeNull();
    // The outage is logged as one: one error when it began and one line when it ended, not
    // an error for each of the 30 refused requests (or each job poll) in between.
    await expect
      .poll(
        () =>
          server
            .logged()
            .slice(loggedBefore)
            .map((e) => e.msg),
        { timeout: 5_000 },
      )
      .toContain('database reachable again');
    const logged = server.logged().slice(loggedBefore);
    expect(logged.filter((e) => e.level >= 50).map((e) => e.msg)).toEqual([
      'database unreachable: requests are answered 503 until it is back',
    ]);
    expect(logged.map((e) => e.msg)).toEqual([
      'database unreachable: requests are answered 503 until it is back',
      'database reachable again',
    ]);
  }, 60_000);
});
