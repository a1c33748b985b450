import { describe, expect, it } from 'vitest';
import { offersNoShow } from '../../src/forms/appointment-staff-form';

// 2026-11-26 10:00 in Berlin is 09:00 UTC.
const START = Date.parse('2026-11-26T09:00:00Z');
const values = { date: '2026-11-26', startTime: '10:00', endTime: '10:50', noShow: false };

describe('the edit form offers "nicht erschienen"', () => {
  it('not before the appointment has started', () => {
    expect(offersNoShow(values, START - 1)).toBe(false);
  });
  it('from its start on', () => {
    expect(offersNoShow(values, START)).toBe(true);
  });
  it('whenever it is ticked already, so it can be unticked', () => {
    expect(offersNoShow({ ...values, noShow: true }, START - 1)).toBe(true);
  });
  it('not while the date is half typed', () => {
    expect(offersNoShow({ ...values, date: '2026-11' }, START)).toBe(false);
  });
});
