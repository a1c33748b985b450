import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Database, Tx } from '../../server/db/client';
import { authFlows, authUsers } from '../../server/db/schema/index';
import { createFlowEngine, type FlowResult } from '../../server/auth-provider/flow/engine';
import { createDbFlowStore } from '../../server/auth-provider/flow/store';
import type { FlowDef } from '../../server/auth-provider/flow/types';
import { createTestDatabase } from '../../server/testing/test-database';

// the flow store on the real database (PostgreSQL with DATABASE_URL, else PGlite).
// Two engines stand for two API processes: each has its own in-process guard, so only the
// database keeps a second action on a flow out while the first runs.

type Env = { tx: Tx };
const request = { ip: '127.0.0.1', userAgent: 'test', language: 'de' };

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase(
    process.env.DATABASE_URL ? inject('templateDatabase') : undefined,
  );
});
afterAll(() => database.close());

function setup() {
  let release: (() => void) | null = null;
  const gate = () => new Promise<void>((resolve) => (release = resolve));
  const def: FlowDef<Env> = {
    name: 'login',
    ttlSeconds: 600,
    initial: ['first'],
    states: {
      first: {
        name: 'first',
        actions: [
          {
            name: 'go',
            description: 'Needs nothing but the flow.',
            inputs: () => [{ name: 'name', type: 'string', required: true }],
            async execute(ctx) {
              ctx.data.name = ctx.input.name;
              return { kind: 'continue', states: ['second'] };
            },
          },
          {
            name: 'slow',
            description: 'Reads, then waits.',
            async execute(ctx) {
              await ctx.env.tx.execute(sql`select 1`);
              await gate();
              ctx.data.slow = true;
              return { kind: 'continue', states: ['second'] };
            },
          },
          {
            name: 'slow_pure',
            description: 'Waits without the database.',
            async execute(ctx) {
              await gate();
              ctx.data.slow = true;
              return { kind: 'continue', states: ['second'] };
            },
          },
          {
            name: 'write_then_fail',
            description: 'Writes a row, then fails.',
            inputs: () => [{ name: 'id', type: 'string', required: true }],
            async execute(ctx) {
              await ctx.env.tx.insert(authUsers).values({ id: String(ctx.input.id) });
              ctx.data.changed = true;
              throw new Error('boom');
            },
          },
          {
            name: 'write',
            description: 'Writes a row.',
            inputs: () => [{ name: 'id', type: 'string', required: true }],
            async execute(ctx) {
              await ctx.env.tx.insert(authUsers).values({ id: String(ctx.input.id) });
              return { kind: 'continue', states: ['second'] };
            },
          },
        ],
      },
      second: { name: 'second', back: true, actions: [] },
    },
  };
  const engine = () =>
    createFlowEngine<Env, Tx>({
      flows: { login: def },
      store: createDbFlowStore(database.db),
      env: (tx) => ({ tx }),
    });
  const act = (
    e: ReturnType<typeof engine>,
    state: FlowResult,
    name: string,
    input: Record<string, unknown> = {},
  ) => {
    const action = state.body.actions[name];
    if (!action) throw new Error(`${state.body.name} offers no ${name}`);
    return e.run(
      'login',
      new URL(action.href, 'http://x').searchParams.get('action')!,
      { input_data: input, csrf_token: state.body.csrf_token },
      request,
    );
  };
  const row = async (state: FlowResult) => {
    const id = Object.values(state.body.actions)[0]!.href.split('%40')[1]!;
    const [found] = await database.db.select().from(authFlows).where(eq(authFlows.id, id));
    return found!;
  };
  return { engine, act, row, release: () => release?.() };
}

describe('flow store', () => {
  it('a step without database work and one with it are both stored, version by version', async () => {
    const { engine, act, row } = setup();
    const e = engine();
    const first = await e.start('login', request);
    expect((await row(first)).version).toBe(0);
    const second = await act(e, first, 'go', { name: 'Ada' });
    expect(second.body.name).toBe('second');
    const stored = await row(first);
    expect(stored).toMatchObject({
      state: 'second',
      version: 1,
      csrfToken: second.body.csrf_token,
    });
    expect((stored.stash as { data: { name: string } }).data.name).toBe('Ada');

    const back = await act(e, second, 'back');
    const id = randomUUID();
    const written = await act(e, back, 'write', { id });
    expect(written.body.name).toBe('second');
    expect(await database.db.select().from(authUsers).where(eq(authUsers.id, id))).toHaveLength(1);
    expect((await row(first)).version).toBe(3);
  });

  for (const slow of ['slow', 'slow_pure']) {
    it(`a second process's action on a flow busy with ${slow} is refused and changes nothing`, async () => {
      const { engine, act, row, release } = setup();
      const [a, b] = [engine(), engine()];
      const first = await a.start('login', request);
      const running = act(a, first, slow);
      // Let the first action claim the flow.
      await new Promise((resolve) => setTimeout(resolve, 100));
      const second = act(b, first, 'go', { name: 'Bob' });
      const settled = await Promise.race([
        second.then(() => 'answered'),
        new Promise((resolve) => setTimeout(() => resolve('waiting'), 300)),
      ]);
      release();
      const [done, refused] = await Promise.all([running, second]);
      expect(done.body.name).toBe('second');
      // PostgreSQL refuses at once (lock); PGlite runs one transaction at a time, so the second
      // waits and then finds the CSRF token used.
      expect(settled).toBe(process.env.DATABASE_URL ? 'answered' : 'waiting');
      expect([403, 500]).toContain(refused.status);
      expect(refused.body).toMatchObject({ name: 'error', csrf_token: '', actions: {} });
      const stored = await row(first);
      expect(stored).toMatchObject({
        state: 'second',
        version: 1,
        csrfToken: done.body.csrf_token,
      });
      expect((stored.stash as { data: Record<string, unknown> }).data).toEqual({ slow: true });
      // The lock was given back: the next step goes through.
      expect((await act(b, done, 'back')).body.name).toBe('first');
    });
  }

  it('an action that fails after writing leaves nothing behind, and the flow goes on', async () => {
    const { engine, act, row } = setup();
    const e = engine();
    const first = await e.start('login', request);
    const id = randomUUID();
    const failed = await act(e, first, 'write_then_fail', { id });
    expect(failed.status).toBe(500);
    expect(await database.db.select().from(authUsers).where(eq(authUsers.id, id))).toHaveLength(0);
    expect(await row(first)).toMatchObject({
      state: 'first',
      version: 0,
      csrfToken: first.body.csrf_token,
    });
    // Neither a lock nor a transaction is left over on the connection.
    const wrongToken = await e.run(
      'login',
      new URL(first.body.actions.go!.href, 'http://x').searchParams.get('action')!,
      { input_data: { name: 'x' }, csrf_token: 'nope' },
      request,
    );
    expect(wrongToken.status).toBe(403);
    expect((await act(e, first, 'go', { name: 'Eve' })).body.name).toBe('second');
    if (process.env.DATABASE_URL) {
      const held = (await database.db.execute(
        sql`select count(*)::int as n from pg_locks where locktype = 'advisory' and granted and database = (select oid from pg_database where datname = current_database())`,
      )) as unknown as { rows: { n: number }[] };
      expect(held.rows[0]!.n).toBe(0);
    }
  });
});
