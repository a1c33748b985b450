import { Temporal } from '@js-temporal/polyfill';

/**
 * Berlin time on Temporal, for the browser and the server (architecture rule 3): everything is
 * shown in Europe/Berlin, weeks start on Monday, and day boundaries are Berlin midnights (so a
 * DST Sunday has 23 or 25 hours). Instants travel as ISO strings; inside machines dates are
 * Temporal values. The staff scheduling screens use it today.
 */
export const ZONE = 'Europe/Berlin';

export type IsoInstant = string;

/** The Monday of the week `date` lies in (ISO weeks: Monday is day 1). */
export const mondayOf = (date: Temporal.PlainDate): Temporal.PlainDate =>
  date.subtract({ days: date.dayOfWeek - 1 });

/** `count` consecutive days from `first`. */
export const daysFrom = (first: Temporal.PlainDate, count: number): Temporal.PlainDate[] =>
  Array.from({ length: count }, (_, i) => first.add({ days: i }));

/** The instant of Berlin midnight at the start of `date`. */
export const startOfDay = (date: Temporal.PlainDate): Temporal.Instant =>
  date.toZonedDateTime({ timeZone: ZONE }).toInstant();

/** `[start of first, start of first + days)` as ISO instants, for the API's window parameters. */
export function windowOf(
  first: Temporal.PlainDate,
  days: number,
): { startDate: IsoInstant; endDate: IsoInstant } {
  return {
    startDate: startOfDay(first).toString(),
    endDate: startOfDay(first.add({ days })).toString(),
  };
}

/** An ISO instant as Berlin wall time. */
export const inBerlin = (iso: IsoInstant): Temporal.ZonedDateTime =>
  Temporal.Instant.from(iso).toZonedDateTimeISO(ZONE);

/** The Berlin date of an instant. */
export const berlinDate = (iso: IsoInstant): Temporal.PlainDate => inBerlin(iso).toPlainDate();

/** Today in Berlin. */
export const todayInBerlin = (now: Temporal.Instant = Temporal.Now.instant()): Temporal.PlainDate =>
  now.toZonedDateTimeISO(ZONE).toPlainDate();

/**
 * Berlin wall time (`2026-03-29`, `09:00`) as an ISO instant. A time that does not exist (the
 * hour skipped in March) moves forward, a time that exists twice takes the earlier one.
 */
export function wallTimeToInstant(date: string, time: string): IsoInstant {
  return Temporal.PlainDateTime.from(`${date}T${time}`)
    .toZonedDateTime(ZONE, { disambiguation: 'compatible' })
    .toInstant()
    .toString();
}

/** `HH:mm` of an instant in Berlin. */
export function berlinTime(iso: IsoInstant): string {
  const z = inBerlin(iso);
  return `${String(z.hour).padStart(2, '0')}:${String(z.minute).padStart(2, '0')}`;
}

/** `dd.MM.yyyy` (docs/domain.md). */
export const formatDate = (date: Temporal.PlainDate): string =>
  `${String(date.day).padStart(2, '0')}.${String(date.month).padStart(2, '0')}.${date.year}`;

/**
 * True when the browser's zone shows other wall times than Berlin (then the screens add a zone
 * note): compared now and half a year on, so zones with other DST rules count as different.
 */
export function zoneDiffers(
  browserZone: string,
  now: Temporal.Instant = Temporal.Now.instant(),
): boolean {
  if (browserZone === ZONE) return false;
  try {
    return [now, now.add({ hours: 24 * 182 })].some(
      (t) =>
        t.toZonedDateTimeISO(browserZone).offsetNanoseconds !==
        t.toZonedDateTimeISO(ZONE).offsetNanoseconds,
    );
  } catch {
    return true;
  }
}

/** The browser's zone (`Intl`), or Berlin when it cannot say. */
export function browserTimeZone(): string {
  try {
    return Temporal.Now.timeZoneId();
  } catch {
    return ZONE;
  }
}

/** Parses `YYYY-MM-DD`, or undefined. */
export function parsePlainDate(value: string | null | undefined): Temporal.PlainDate | undefined {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  try {
    return Temporal.PlainDate.from(value, { overflow: 'reject' });
  } catch {
    return undefined;
  }
}
