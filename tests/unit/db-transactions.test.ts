import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { releasingTransactions, type Db } from '../../server/db/client';

/**
 * A pool whose connections can fail at BEGIN, as a connection that died while idle does
 * after a database restart. Counts what the pool would see.
 */
class FakePool {
  checkedOut = 0;
  destroyed = 0;
  statements: string[] = [];
  failBegin = false;
  async connect(): Promise<pg.PoolClient> {
    this.checkedOut++;
    const client = {
      query: async (config: string | { text: string }) => {
        const text = typeof config === 'string' ? config : config.text;
        this.statements.push(text);
        if (this.failBegin && /^begin/.test(text))
          throw new Error('Connection terminated unexpectedly');
        return { rows: [], rowCount: 0, fields: [], command: '' };
      },
      release: (error?: Error) => {
        this.checkedOut--;
        if (error) this.destroyed++;
      },
    };
    return client as unknown as pg.PoolClient;
  }
}

const dbOn = (pool: FakePool) =>
  releasingTransactions(drizzle({ client: pool as never }) as unknown as Db, pool);

describe('transactions on a pool', () => {
  it('gives the connection back, closed, when BEGIN fails, so the pool does not run dry', async () => {
    const pool = new FakePool();
    pool.failBegin = true;
    const db = dbOn(pool);
    for (let i = 0; i < 12; i++) {
      await expect(db.transaction(async () => 'never')).rejects.toThrow(/begin/);
    }
    expect(pool.checkedOut).toBe(0);
    expect(pool.destroyed).toBe(12);
  });

  it('reuses the connection after a commit and after a rollback of a refused write', async () => {
    const pool = new FakePool();
    const db = dbOn(pool);
    await expect(db.transaction(async () => 'done')).resolves.toBe('done');
    await expect(
      db.transaction(async () => {
        throw new Error('slot_taken');
      }),
    ).rejects.toThrow('slot_taken');
    expect(pool.statements).toEqual(['begin', 'commit', 'begin', 'rollback']);
    expect(pool.checkedOut).toBe(0);
    expect(pool.destroyed).toBe(0);
  });
});
