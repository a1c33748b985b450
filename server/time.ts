import { Temporal } from '@js-temporal/polyfill';

/**
 * Instants on the server, on Temporal (architecture rule 3). Berlin wall time, days and
 * formats are in `shared/time.ts`; this file only bridges the server's edges: its clocks
 * (`deps.now()`, the job queue's `now`) hand out a `Date`, and the API writes instants as
 * ISO strings with milliseconds (the stored precision, `Date#toISOString`'s form).
 */

/** A clock's `Date` as an instant. */
export const instantOf = (date: Date): Temporal.Instant =>
  Temporal.Instant.fromEpochMilliseconds(date.getTime());

/** Epoch milliseconds as an instant. */
export const instantOfMs = (ms: number): Temporal.Instant =>
  Temporal.Instant.fromEpochMilliseconds(ms);

/** An ISO instant (the API's or a row's) as an instant. */
export const instant = (iso: string): Temporal.Instant => Temporal.Instant.from(iso);

/** An instant as the API writes it: `2026-10-25T01:00:00.000Z`. */
export const isoOf = (at: Temporal.Instant): string => at.toString({ fractionalSecondDigits: 3 });

/** Epoch milliseconds as the API's ISO form (for values out of the slot and occurrence loops). */
export const isoOfMs = (ms: number): string => isoOf(Temporal.Instant.fromEpochMilliseconds(ms));

/** Minutes from `start` to `end` (negative when `end` is earlier). */
export const minutesBetween = (start: string, end: string): number =>
  instant(start).until(instant(end)).total('minutes');

/** -1, 0 or 1 as `a` is before, at or after `b`. */
export const compareInstants = (a: Temporal.Instant, b: Temporal.Instant): number =>
  Temporal.Instant.compare(a, b);
