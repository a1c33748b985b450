import { describe, expect, it } from 'vitest';
import { queryWindow } from '../../server/features/availability/window';
import { HttpProblem } from '../../server/http/problem';

const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error instanceof HttpProblem ? error.errors?.[0]?.code : String(error);
  }
  return 'passed';
};

describe('query windows count Berlin days', () => {
  it('allows 62 Berlin days across the October change (62 × 24 h + 1 h)', () => {
    // 1 October 00:00 summer time to 2 December 00:00 winter time.
    const { from, to } = queryWindow('2026-09-30T22:00:00.000Z', '2026-12-01T23:00:00.000Z', 62);
    expect((to - from) / 3_600_000).toBe(62 * 24 + 1);
    expect(
      code(() => queryWindow('2026-09-30T22:00:00.000Z', '2026-12-01T23:00:00.001Z', 62)),
    ).toBe('window_too_large');
  });

  it('allows 62 Berlin days across the March change (62 × 24 h − 1 h), not an hour more', () => {
    // 1 March 00:00 winter time to 2 May 00:00 summer time.
    const start = '2027-02-28T23:00:00.000Z';
    expect(code(() => queryWindow(start, '2027-05-01T22:00:00.000Z', 62))).toBe('passed');
    expect(code(() => queryWindow(start, '2027-05-01T23:00:00.000Z', 62))).toBe('window_too_large');
  });

  it('refuses a window that does not end after its start', () => {
    const at = '2026-10-25T01:00:00.000Z';
    expect(code(() => queryWindow(at, at, 62))).toBe('end_before_start');
  });
});
