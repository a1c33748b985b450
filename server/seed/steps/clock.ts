import { Temporal } from '@js-temporal/polyfill';
import { WEEKDAYS, type Weekday } from '../data';

export const ZONE = 'Europe/Berlin';
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

export const iso = (ms: number) => new Date(ms).toISOString();

/** Time: day offsets relative to the seed day, wall-clock hours in Europe/Berlin. */
export class DemoClock {
  readonly today: Temporal.PlainDate;
  private offsets = new Map<number, number>();

  constructor(readonly now: Date) {
    this.today = Temporal.Instant.fromEpochMilliseconds(now.getTime())
      .toZonedDateTimeISO(ZONE)
      .toPlainDate();
  }

  private dates = new Map<number, Temporal.PlainDate>();

  date(day: number): Temporal.PlainDate {
    let d = this.dates.get(day);
    if (!d) this.dates.set(day, (d = this.today.add({ days: day })));
    return d;
  }

  weekday(day: number): Weekday {
    return WEEKDAYS[(((this.today.dayOfWeek - 1 + day) % 7) + 7) % 7]!;
  }

  /**
   * Epoch milliseconds of a Berlin wall-clock time on a day. The zone offset is taken at
   * noon of that day: daytime hours never straddle the 2–3 am switch of summer time.
   */
  at(day: number, hour: number, minute = 0): number {
    let offset = this.offsets.get(day);
    const d = this.date(day);
    if (offset === undefined) {
      offset =
        d.toZonedDateTime({ timeZone: ZONE, plainTime: new Temporal.PlainTime(12) })
          .offsetNanoseconds / 1e6;
      this.offsets.set(day, offset);
    }
    return Date.UTC(d.year, d.month - 1, d.day, hour, minute) - offset;
  }
}
