import { describe, expect, it } from 'vitest';
import { mergePatch } from '../../server/auth-provider/metadata';

// RFC 7396, appendix A: target, patch, result.
const CASES: Array<[unknown, unknown, unknown]> = [
  [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
  [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
  [{ a: 'b' }, { a: null }, {}],
  [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
  [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
  [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
  [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
  [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
  [
    ['a', 'b'],
    ['c', 'd'],
    ['c', 'd'],
  ],
  [{ a: 'b' }, ['c'], ['c']],
  [{ a: 'foo' }, null, null],
  [{ a: 'foo' }, 'bar', 'bar'],
  [{ e: null }, { a: 1 }, { e: null, a: 1 }],
  [[1, 2], { a: 'b', c: null }, { a: 'b' }],
  [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
];

describe('mergePatch (RFC 7396)', () => {
  it.each(CASES)('%j patched with %j is %j', (target, patch, result) => {
    expect(JSON.parse(JSON.stringify(mergePatch(target, patch)))).toEqual(result);
  });

  it('treats __proto__ and hasOwnProperty as plain keys', () => {
    const patched = mergePatch(
      { hasOwnProperty: 1 },
      JSON.parse('{"__proto__": {"polluted": true}, "hasOwnProperty": null}'),
    );
    expect(JSON.parse(JSON.stringify(patched))).toEqual({ ['__proto__']: { polluted: true } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
