/**
 * Availability occurrences: an availability is a local (Europe/Berlin) day and wall-clock
 * start/end time, optionally repeated by an RFC 5545 rule. The rule is expanded by
 * rrule-temporal in the zone, so 09:00 stays 09:00 across daylight-saving changes; this
 * module only turns occurrence starts into [start, end) instants and applies overrides.
 *
 * Expansion is cached per rule content and week, because a slot query over 50 coaches asks
 * the same weeks of the same rules again and again and Temporal arithmetic is not cheap.
 */
import { Temporal } from '@js-temporal/polyfill';
import { RRuleTemporal } from 'rrule-temporal';
import { ZONE } from '../../../shared/time';
import { isoOfMs } from '../../time';

export { ZONE };
// The expansion below runs per coach, rule and week of every slot query: it computes in epoch
// milliseconds and UTC week chunks (measured: Temporal objects per occurrence are not cheap).
// Wall times and Berlin days are turned into instants by Temporal before they get here.
const DAY_MS = 24 * 60 * 60_000;
const WEEK_MS = 7 * DAY_MS;
// 1970-01-05 was a Monday: week chunks start on Mondays 00:00 UTC.
const MONDAY_MS = 4 * DAY_MS;

export interface SeriesFields {
  startDay: string;
  /** HH:mm (or HH:mm:ss as PostgreSQL returns `time`). */
  startTime: string;
  endTime: string;
  recurrence: string | null;
}

export interface OverrideFields {
  occurrenceDate: string;
  cancelled: boolean;
  startDate: string | null;
  endDate: string | null;
}

/** One occurrence as epoch milliseconds, with the local date the rule generated. */
export interface Occurrence {
  occurrenceDate: string;
  start: number;
  end: number;
  modified: boolean;
}

/** A rule the caller wrote that cannot be used; the handler answers 400 naming the field. */
export class RuleError extends Error {
  constructor(
    readonly field: 'recurrence' | 'startDay' | 'endTime',
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export const hhmm = (time: string) => time.slice(0, 5);

function plainTime(time: string) {
  return Temporal.PlainTime.from(hhmm(time));
}

/** The instant of a local date and wall time in Europe/Berlin (a time in the spring gap moves forward). */
export function localInstant(date: string, time: string): number {
  return Temporal.PlainDate.from(date).toZonedDateTime({
    timeZone: ZONE,
    plainTime: plainTime(time),
  }).epochMilliseconds;
}

/** The local (Europe/Berlin) calendar date of an instant, YYYY-MM-DD. */
export function localDate(ms: number): string {
  return Temporal.Instant.fromEpochMilliseconds(ms)
    .toZonedDateTimeISO(ZONE)
    .toPlainDate()
    .toString();
}

function checkRule(recurrence: string) {
  const parts = new Map(recurrence.split(';').map((p) => p.split('=') as [string, string]));
  if (parts.get('FREQ') !== 'WEEKLY') {
    throw new RuleError('recurrence', 'value_not_allowed', 'Only FREQ=WEEKLY rules are accepted');
  }
  if (parts.has('UNTIL') && parts.has('COUNT')) {
    throw new RuleError('recurrence', 'until_and_count', 'UNTIL and COUNT exclude each other');
  }
  const until = parts.get('UNTIL');
  if (until && until.includes('T') && !until.endsWith('Z')) {
    throw new RuleError(
      'recurrence',
      'value_invalid_format',
      'UNTIL with a time must be in UTC (…Z)',
    );
  }
}

interface Compiled {
  rule: RRuleTemporal | null;
  startDay: string;
  startTime: string;
  endTime: string;
  weeks: Map<number, Occurrence[]>;
}

const compiled = new Map<string, Compiled>();
const MAX_COMPILED = 20_000;
const MAX_WEEKS_PER_RULE = 260;

function compile(series: SeriesFields): Compiled {
  const key = `${series.startDay}|${hhmm(series.startTime)}|${hhmm(series.endTime)}|${series.recurrence ?? ''}`;
  let entry = compiled.get(key);
  if (entry) return entry;
  let rule: RRuleTemporal | null = null;
  if (series.recurrence) {
    checkRule(series.recurrence);
    try {
      rule = new RRuleTemporal({
        rruleString: series.recurrence,
        dtstart: Temporal.PlainDate.from(series.startDay).toZonedDateTime({
          timeZone: ZONE,
          plainTime: plainTime(series.startTime),
        }),
        temporal: Temporal as never,
      });
    } catch (error) {
      throw new RuleError('recurrence', 'value_invalid', (error as Error).message);
    }
  }
  entry = {
    rule,
    startDay: series.startDay,
    startTime: hhmm(series.startTime),
    endTime: hhmm(series.endTime),
    weeks: new Map(),
  };
  if (compiled.size >= MAX_COMPILED) compiled.clear();
  compiled.set(key, entry);
  return entry;
}

function occurrenceOn(c: Compiled, date: string): Occurrence {
  return {
    occurrenceDate: date,
    start: localInstant(date, c.startTime),
    end: localInstant(date, c.endTime),
    modified: false,
  };
}

/** The rule's occurrences whose start lies in week chunk `week` (cached). */
function week(c: Compiled, index: number): Occurrence[] {
  let list = c.weeks.get(index);
  if (list) return list;
  const from = index * WEEK_MS + MONDAY_MS;
  const to = from + WEEK_MS;
  if (!c.rule) {
    const one = occurrenceOn(c, c.startDay);
    list = one.start >= from && one.start < to ? [one] : [];
  } else {
    list = c.rule
      .between(new Date(from), new Date(to), true)
      .filter((z) => z.epochMilliseconds >= from && z.epochMilliseconds < to)
      .map((z) => occurrenceOn(c, z.toPlainDate().toString()));
  }
  if (c.weeks.size >= MAX_WEEKS_PER_RULE) c.weeks.clear();
  c.weeks.set(index, list);
  return list;
}

/** Rule occurrences (no overrides) that overlap [from, to). */
export function ruleOccurrences(series: SeriesFields, from: number, to: number): Occurrence[] {
  const c = compile(series);
  const out: Occurrence[] = [];
  // An occurrence lasts less than a day: one starting a day before `from` may reach into it.
  const first = Math.floor((from - DAY_MS - MONDAY_MS) / WEEK_MS);
  const last = Math.floor((to - 1 - MONDAY_MS) / WEEK_MS);
  for (let i = first; i <= last; i++) {
    for (const o of week(c, i)) if (o.start < to && o.end > from) out.push(o);
  }
  return out;
}

/** Occurrences overlapping [from, to) with overrides applied, in start order. */
export function expandOccurrences(
  series: SeriesFields,
  overrides: readonly OverrideFields[],
  from: number,
  to: number,
): Occurrence[] {
  const byDate = new Map(overrides.map((o) => [o.occurrenceDate, o]));
  const out = ruleOccurrences(series, from, to).filter((o) => !byDate.has(o.occurrenceDate));
  for (const o of overrides) {
    if (o.cancelled || !o.startDate || !o.endDate) continue;
    const start = Date.parse(o.startDate); // hot loop: epoch ms (see top)
    const end = Date.parse(o.endDate);
    if (start < to && end > from) {
      out.push({ occurrenceDate: o.occurrenceDate, start, end, modified: true });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

/** Whether the rule generates an occurrence on the local date `date`. */
export function isOccurrenceDate(series: SeriesFields, date: string): boolean {
  // The Berlin day: 23 or 25 hours on the days the clocks change.
  const next = Temporal.PlainDate.from(date).add({ days: 1 }).toString();
  return ruleOccurrences(series, localInstant(date, '00:00'), localInstant(next, '00:00')).some(
    (o) => o.occurrenceDate === date,
  );
}

/**
 * Checks a series and returns the UTC bounds of all its occurrences (end null for an
 * open-ended rule), which the database keeps so window queries need no expansion in SQL.
 */
export function seriesBounds(
  series: SeriesFields,
  overrides: readonly OverrideFields[] = [],
): { seriesStart: string; seriesEnd: string | null } {
  if (hhmm(series.endTime) <= hhmm(series.startTime)) {
    throw new RuleError('endTime', 'end_before_start', 'The end time must be after the start time');
  }
  const c = compile(series);
  let start: number;
  let end: number | null;
  if (!c.rule) {
    const one = occurrenceOn(c, c.startDay);
    start = one.start;
    end = one.end;
  } else {
    const [first] = c.rule.all((_, i) => i < 1);
    if (!first) throw new RuleError('recurrence', 'no_occurrences', 'The rule has no occurrence');
    start = occurrenceOn(c, first.toPlainDate().toString()).start;
    const options = c.rule.options();
    if (options.count || options.until) {
      const all = c.rule.all();
      end = occurrenceOn(c, all[all.length - 1]!.toPlainDate().toString()).end;
    } else {
      end = null;
    }
  }
  for (const o of overrides) {
    if (o.cancelled || !o.startDate || !o.endDate) continue;
    start = Math.min(start, Date.parse(o.startDate));
    if (end !== null) end = Math.max(end, Date.parse(o.endDate));
  }
  return {
    seriesStart: isoOfMs(start),
    seriesEnd: end === null ? null : isoOfMs(end),
  };
}
