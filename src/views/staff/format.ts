import { Temporal } from '@js-temporal/polyfill';

/**
 * German formats for the staff screens (docs/domain.md): dates `dd.MM.yyyy`, times `HH:mm` (24 h),
 * always in Europe/Berlin, whatever zone the browser is in.
 */
export const ZONE = 'Europe/Berlin';

const two = (n: number) => String(n).padStart(2, '0');

const zoned = (iso: string) => Temporal.Instant.from(iso).toZonedDateTimeISO(ZONE);

/** `24.03.2026` for an instant (its Berlin date) or a plain date `2026-03-24`. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '';
  const date = /^\d{4}-\d{2}-\d{2}$/.test(value)
    ? Temporal.PlainDate.from(value)
    : zoned(value).toPlainDate();
  return `${two(date.day)}.${two(date.month)}.${date.year}`;
}

/** `14:30` in Berlin. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const z = zoned(iso);
  return `${two(z.hour)}:${two(z.minute)}`;
}

/** `24.03.2026, 14:30` in Berlin. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '';
  return `${formatDate(iso)}, ${formatTime(iso)}`;
}

/** `24.03.2026, 14:30–15:20` (the end on another day gets its date too). */
export function formatRange(startIso: string, endIso: string): string {
  const sameDay = formatDate(startIso) === formatDate(endIso);
  return `${formatDateTime(startIso)}–${sameDay ? formatTime(endIso) : formatDateTime(endIso)}`;
}

/** Berlin calendar date `YYYY-MM-DD` of an instant (for date inputs). */
export function isoDateInBerlin(iso: string): string {
  return zoned(iso).toPlainDate().toString();
}

/** The instant of Berlin midnight starting `date` (`YYYY-MM-DD`), as ISO. */
export function berlinStartOfDay(date: string): string {
  return Temporal.PlainDate.from(date).toZonedDateTime({ timeZone: ZONE }).toInstant().toString();
}

/** Age as the specification counts it: the current year minus the year of birth. */
export function ageOf(
  yearOfBirth: number | null | undefined,
  now: Temporal.Instant = Temporal.Now.instant(),
): number | null {
  if (yearOfBirth === null || yearOfBirth === undefined) return null;
  return now.toZonedDateTimeISO(ZONE).year - yearOfBirth;
}

/** German number formatting (`1.234`). */
export const formatNumber = (n: number): string => new Intl.NumberFormat('de-DE').format(n);

const EURO = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' });

/** `1.234,50 €` for integer cents. */
export const formatEuro = (cents: number): string => EURO.format(cents / 100);
