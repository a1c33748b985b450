/**
 * Public holidays of the practice's federal state (HOLIDAY_STATE), from the date-holidays
 * catalogue that also fills the calendar's holiday events. A holiday is a whole Berlin day;
 * no slot falls on one (./slots.ts), and staff move an appointment onto one only with a
 * stated reason (../appointments/move.ts).
 */
import Holidays from 'date-holidays';
import { Temporal } from '@js-temporal/polyfill';
import { ZONE } from '../availability/index';

export interface Holiday {
  /** Local date, YYYY-MM-DD. */
  date: string;
  /** German name, e.g. "1. Weihnachtstag". */
  name: string;
  /** Berlin midnight to midnight, epoch ms. */
  start: number;
  end: number;
}

const calendars = new Map<string, Holidays>();
function holidaysOf(state: string) {
  let hd = calendars.get(state);
  if (!hd) {
    hd = new Holidays('DE', state, { languages: ['de'], timezone: ZONE, types: ['public'] });
    calendars.set(state, hd);
  }
  return hd;
}

const years = new Map<string, Holiday[]>();
function holidaysIn(state: string, year: number): Holiday[] {
  const key = `${state}|${year}`;
  let list = years.get(key);
  if (!list) {
    list = holidaysOf(state)
      .getHolidays(year)
      .map((h) => ({
        date: h.date.slice(0, 10),
        name: h.name,
        start: h.start.getTime(),
        end: h.end.getTime(),
      }));
    years.set(key, list);
  }
  return list;
}

const yearOf = (ms: number) =>
  Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(ZONE).year;

/** The state's public holidays overlapping [from, to), in date order. */
export function holidaysBetween(state: string, from: number, to: number): Holiday[] {
  const out: Holiday[] = [];
  for (let year = yearOf(from) - 1; year <= yearOf(to) + 1; year++) {
    for (const h of holidaysIn(state, year)) {
      if (h.start < to && h.end > from) out.push(h);
    }
  }
  return out;
}

/** The first public holiday that [start, end) touches, or null. */
export const holidayDuring = (state: string, start: number, end: number): Holiday | null =>
  holidaysBetween(state, start, end)[0] ?? null;
