import { describe, expect, it } from 'vitest';
import {
  expandOccurrences,
  isOccurrenceDate,
  RuleError,
  seriesBounds,
} from '../../server/features/availability/occurrences';

const iso = (ms: number) => new Date(ms).toISOString();
const window = (from: string, to: string) => [Date.parse(from), Date.parse(to)] as const;

describe('availability occurrences (Europe/Berlin wall time)', () => {
  it('keeps the wall time across both daylight-saving changes of 2027', () => {
    const sundays = {
      startDay: '2027-03-21',
      startTime: '09:00',
      endTime: '12:00',
      recurrence: 'FREQ=WEEKLY;BYDAY=SU',
    };
    const spring = expandOccurrences(
      sundays,
      [],
      ...window('2027-03-20T00:00:00Z', '2027-03-29T00:00:00Z'),
    );
    expect(spring.map((o) => [o.occurrenceDate, iso(o.start), iso(o.end)])).toEqual([
      ['2027-03-21', '2027-03-21T08:00:00.000Z', '2027-03-21T11:00:00.000Z'],
      ['2027-03-28', '2027-03-28T07:00:00.000Z', '2027-03-28T10:00:00.000Z'],
    ]);
    const autumn = expandOccurrences(
      sundays,
      [],
      ...window('2027-10-24T00:00:00Z', '2027-11-01T00:00:00Z'),
    );
    expect(autumn.map((o) => [o.occurrenceDate, iso(o.start)])).toEqual([
      ['2027-10-24', '2027-10-24T07:00:00.000Z'],
      ['2027-10-31', '2027-10-31T08:00:00.000Z'],
    ]);
  });

  it('omits a start in the spring gap, as RFC 5545 says', () => {
    const night = {
      startDay: '2027-03-21',
      startTime: '02:30',
      endTime: '03:30',
      recurrence: 'FREQ=WEEKLY;BYDAY=SU;COUNT=3',
    };
    const list = expandOccurrences(
      night,
      [],
      ...window('2027-03-01T00:00:00Z', '2027-05-01T00:00:00Z'),
    );
    expect(list.map((o) => o.occurrenceDate)).toEqual(['2027-03-21', '2027-04-04', '2027-04-11']);
    expect(isOccurrenceDate(night, '2027-03-28')).toBe(false);
  });

  it('applies overrides: removed, moved into the window, moved out of it', () => {
    const daily = {
      startDay: '2027-06-07',
      startTime: '10:00',
      endTime: '11:00',
      recurrence: 'FREQ=WEEKLY;BYDAY=MO,TU,WE',
    };
    const list = expandOccurrences(
      daily,
      [
        { occurrenceDate: '2027-06-07', cancelled: true, startDate: null, endDate: null },
        {
          occurrenceDate: '2027-06-08',
          cancelled: false,
          startDate: '2027-06-20T08:00:00.000Z',
          endDate: '2027-06-20T09:00:00.000Z',
        },
        {
          occurrenceDate: '2027-06-14',
          cancelled: false,
          startDate: '2027-06-09T12:00:00.000Z',
          endDate: '2027-06-09T13:00:00.000Z',
        },
      ],
      ...window('2027-06-07T00:00:00Z', '2027-06-10T00:00:00Z'),
    );
    expect(list.map((o) => [o.occurrenceDate, iso(o.start), o.modified])).toEqual([
      ['2027-06-09', '2027-06-09T08:00:00.000Z', false],
      ['2027-06-14', '2027-06-09T12:00:00.000Z', true],
    ]);
  });

  it('bounds a series: one-off, COUNT, UNTIL, open-ended; refuses rules it cannot use', () => {
    const base = { startDay: '2027-03-22', startTime: '09:00', endTime: '12:00' };
    expect(seriesBounds({ ...base, recurrence: null })).toEqual({
      seriesStart: '2027-03-22T08:00:00.000Z',
      seriesEnd: '2027-03-22T11:00:00.000Z',
    });
    expect(seriesBounds({ ...base, recurrence: 'FREQ=WEEKLY;BYDAY=MO;COUNT=2' }).seriesEnd).toBe(
      '2027-03-29T10:00:00.000Z',
    );
    expect(
      seriesBounds({ ...base, recurrence: 'FREQ=WEEKLY;BYDAY=MO;UNTIL=20270405' }).seriesEnd,
    ).toBe('2027-04-05T10:00:00.000Z');
    expect(seriesBounds({ ...base, recurrence: 'FREQ=WEEKLY;BYDAY=MO' }).seriesEnd).toBeNull();
    const fieldOf = (f: () => unknown) => {
      try {
        f();
      } catch (error) {
        return error instanceof RuleError ? error.field : 'other';
      }
      return 'none';
    };
    expect(fieldOf(() => seriesBounds({ ...base, endTime: '08:00', recurrence: null }))).toBe(
      'endTime',
    );
    expect(
      fieldOf(() => seriesBounds({ ...base, recurrence: 'FREQ=WEEKLY;COUNT=2;UNTIL=20270405' })),
    ).toBe('recurrence');
    expect(fieldOf(() => seriesBounds({ ...base, recurrence: 'FREQ=WEEKLY;UNTIL=20270101' }))).toBe(
      'recurrence',
    );
  });
});

describe('Berlin days of 25 hours (October change)', () => {
  it('finds an occurrence late on the Sunday the clocks go back', () => {
    // 25 October 2026 has 25 hours: 23:15 is 24 h 15 min after midnight.
    const lateSundays = {
      startDay: '2026-10-18',
      startTime: '23:15',
      endTime: '23:45',
      recurrence: 'FREQ=WEEKLY;BYDAY=SU',
    };
    expect(isOccurrenceDate(lateSundays, '2026-10-25')).toBe(true);
    expect(isOccurrenceDate(lateSundays, '2026-10-18')).toBe(true);
    expect(isOccurrenceDate(lateSundays, '2026-10-24')).toBe(false);
  });
});
