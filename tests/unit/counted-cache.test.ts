import { describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/client';
import { countedCache } from '../../server/db/counted-cache';

/** A table whose writes bump its generation, and a count that records how often it ran. */
function countedTable(rows: number) {
  const table = { rows, generation: 1, counted: 0 };
  return {
    table,
    write(added: number) {
      table.rows += added;
      table.generation++;
    },
    count: () => {
      table.counted++;
      return { n: table.rows, generation: String(table.generation) };
    },
  };
}

const db = {} as Db;

/** A list's total as the three lists take it: the remembered one while its generation stands. */
function total(cache: ReturnType<typeof countedCache<number>>, t: ReturnType<typeof countedTable>) {
  const remembered = cache.at(db, 'coach:1', String(t.table.generation));
  if (remembered !== undefined) return remembered;
  const { n, generation } = t.count();
  cache.remember(db, 'coach:1', generation, n);
  return n;
}

describe('counted cache', () => {
  it('serves a count from the cache until the generation changes', () => {
    const cache = countedCache<number>(10);
    const t = countedTable(7);
    expect([total(cache, t), total(cache, t), total(cache, t)]).toEqual([7, 7, 7]);
    expect(t.table.counted).toBe(1);

    t.write(2);
    expect([total(cache, t), total(cache, t)]).toEqual([9, 9]);
    expect(t.table.counted).toBe(2);
  });

  it('keeps counts apart per database and key, and knows none without a generation', () => {
    const cache = countedCache<number>(10);
    const other = {} as Db;
    cache.remember(db, 'a', '3', 5);
    expect(cache.at(db, 'a', '3')).toBe(5);
    expect(cache.at(db, 'b', '3')).toBeUndefined();
    expect(cache.at(other, 'a', '3')).toBeUndefined();
    expect(cache.at(db, 'a', null)).toBeUndefined();
    expect(cache.get(db, 'a')).toEqual({ generation: '3', value: 5 });
  });

  it('keeps at most its limit of keys, dropping the oldest', () => {
    const cache = countedCache<number>(2);
    cache.remember(db, 'a', '1', 1);
    cache.remember(db, 'b', '1', 2);
    cache.remember(db, 'a', '2', 3);
    cache.remember(db, 'c', '1', 4);
    expect(cache.get(db, 'a')).toBeUndefined();
    expect(cache.at(db, 'b', '1')).toBe(2);
    expect(cache.at(db, 'c', '1')).toBe(4);
  });
});
