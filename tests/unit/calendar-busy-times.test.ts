import { describe, expect, it } from 'vitest';
import { busyIntervals } from '../../server/features/calendars/ical-busy';
import { icsOf } from '../support/radicale';

// What a calendar object blocks, as instants: the parts a CalDAV server hands over in ways
// the integration test does not reach (series overrides, EXDATE, Outlook's zone names).
const FROM = Date.parse('2026-12-01T00:00:00Z');
const UNTIL = Date.parse('2027-02-01T00:00:00Z');

const utc = (ics: string) =>
  busyIntervals(ics, FROM, UNTIL).map((i) => [
    new Date(i.start).toISOString(),
    new Date(i.end).toISOString(),
  ]);

const OUTLOOK_ZONE = [
  'BEGIN:VTIMEZONE',
  'TZID:W. Europe Standard Time',
  'BEGIN:STANDARD',
  'DTSTART:16010101T030000',
  'TZOFFSETFROM:+0200',
  'TZOFFSETTO:+0100',
  'RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10',
  'END:STANDARD',
  'BEGIN:DAYLIGHT',
  'DTSTART:16010101T020000',
  'TZOFFSETFROM:+0100',
  'TZOFFSETTO:+0200',
  'RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3',
  'END:DAYLIGHT',
  'END:VTIMEZONE',
].join('\r\n');

describe('busy intervals of a calendar object', () => {
  it('leaves out an EXDATE and moves an occurrence its RECURRENCE-ID override moved', () => {
    const ics = icsOf(
      'BEGIN:VEVENT',
      'UID:s',
      'DTSTAMP:20260101T000000Z',
      'DTSTART;TZID=Europe/Berlin:20261207T120000',
      'DTEND;TZID=Europe/Berlin:20261207T130000',
      'RRULE:FREQ=WEEKLY;COUNT=4',
      'EXDATE;TZID=Europe/Berlin:20261214T120000',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:s',
      'DTSTAMP:20260101T000000Z',
      'RECURRENCE-ID;TZID=Europe/Berlin:20261221T120000',
      'DTSTART;TZID=Europe/Berlin:20261221T150000',
      'DTEND;TZID=Europe/Berlin:20261221T160000',
      'END:VEVENT',
    );
    expect(utc(ics)).toEqual([
      ['2026-12-07T11:00:00.000Z', '2026-12-07T12:00:00.000Z'],
      ['2026-12-21T14:00:00.000Z', '2026-12-21T15:00:00.000Z'],
      ['2026-12-28T11:00:00.000Z', '2026-12-28T12:00:00.000Z'],
    ]);
  });

  it('reads a zone name Temporal does not know through the object’s VTIMEZONE', () => {
    const ics = icsOf(
      OUTLOOK_ZONE,
      'BEGIN:VEVENT',
      'UID:o',
      'DTSTAMP:20260101T000000Z',
      'DTSTART;TZID=W. Europe Standard Time:20261210T100000',
      'DTEND;TZID=W. Europe Standard Time:20261210T110000',
      'END:VEVENT',
    );
    expect(utc(ics)).toEqual([['2026-12-10T09:00:00.000Z', '2026-12-10T10:00:00.000Z']]);
  });

  it('blocks nothing for cancelled or free events, and whole Berlin days for all-day ones', () => {
    const event = (...lines: string[]) =>
      icsOf('BEGIN:VEVENT', 'UID:x', 'DTSTAMP:20260101T000000Z', ...lines, 'END:VEVENT');
    expect(
      utc(event('DTSTART:20261210T100000Z', 'DTEND:20261210T110000Z', 'STATUS:CANCELLED')),
    ).toEqual([]);
    expect(
      utc(event('DTSTART:20261210T100000Z', 'DTEND:20261210T110000Z', 'TRANSP:TRANSPARENT')),
    ).toEqual([]);
    const allDay = busyIntervals(
      event('DTSTART;VALUE=DATE:20261224', 'DTEND;VALUE=DATE:20261226'),
      FROM,
      UNTIL,
    );
    expect(allDay).toEqual([
      {
        start: Date.parse('2026-12-23T23:00:00Z'),
        end: Date.parse('2026-12-25T23:00:00Z'),
        allDay: true,
      },
    ]);
  });
});
