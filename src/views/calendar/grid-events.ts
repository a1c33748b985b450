import { Temporal } from '@js-temporal/polyfill';
import type { CalendarEvent, PrivateBusyTime } from '../../machines/scheduling/shared';
import type { FreeStretch } from '../../machines/scheduling/initial-pool';
import { inBerlin } from '../../../shared/time';

/**
 * The calendar machine's events as the time grid (react-big-calendar) takes them. The grid lays
 * out `Date`s in the browser's zone, so every Berlin wall time becomes a `Date` with the same
 * wall time in the browser's zone: a browser in New York still shows 10:00 for 10:00 Berlin.
 */

/** A `Date` whose local wall time is Berlin's wall time at `iso`. */
export function berlinWallDate(iso: string): Date {
  const z = inBerlin(iso);
  return new Date(z.year, z.month - 1, z.day, z.hour, z.minute);
}

/** Noon of a Berlin day, as the grid's `date`. */
export const dayDate = (day: Temporal.PlainDate): Date =>
  new Date(day.year, day.month - 1, day.day, 12);

/** Now, as a wall time in Berlin (the grid's current-time line). */
export const berlinNow = (): Date => berlinWallDate(Temporal.Now.instant().toString());

export interface GridEvent {
  id: string;
  title: string;
  start: Date;
  end: Date;
  allDay: boolean;
  /** Free time of the initial-meetings pool (an entry of its own, not a shaded slot). */
  free: boolean;
  /** A coach's private busy time: an entry that says only "Privat belegt" and opens nothing. */
  private: boolean;
  /** The coach's column (day view of every coach). */
  resourceId: string | undefined;
  source: CalendarEvent;
}

/** A shaded stretch of a day: availability or a blocker. */
export interface GridSpan {
  kind: 'availability' | 'blocker';
  coachId: string | null;
  start: number;
  end: number;
}

export interface GridData {
  /** Appointments. */
  events: GridEvent[];
  /** Holiday names by Berlin date (`2026-04-03`), shown in the day's heading. */
  holidays: Map<string, string>;
  /** The coaches privately busy all day, by Berlin date, shown in the day's heading. */
  privateDays: Map<string, string[]>;
  /** Availability and blockers, shaded in the slots they cover (no buttons of their own). */
  spans: GridSpan[];
  /** The first and last hour the grid shows: 07–20 at least, wider when entries lie outside. */
  firstHour: number;
  lastHour: number;
}

/** A free stretch as the event the grid places (no appointment: it opens nothing). */
const freeEvent = (f: FreeStretch): CalendarEvent => ({
  id: `free:${f.coachId}:${f.startDate}`,
  kind: 'availability',
  startDate: f.startDate,
  endDate: f.endDate,
  title: '',
  coachId: f.coachId,
  appointmentId: null,
  appointmentType: null,
  availabilityId: null,
  occurrenceDate: null,
  isProvisional: false,
});

/** A private busy time as the entry the grid places: times and coach, nothing else. */
const privateEvent = (b: PrivateBusyTime): CalendarEvent => ({
  id: `private:${b.coachId}:${b.startDate}`,
  kind: 'blocker',
  startDate: b.startDate,
  endDate: b.endDate,
  title: '',
  coachId: b.coachId,
  appointmentId: null,
  appointmentType: null,
  availabilityId: null,
  occurrenceDate: null,
  isProvisional: false,
});

export function toGridData(
  events: readonly CalendarEvent[],
  free: readonly FreeStretch[] = [],
  privateBusy: readonly PrivateBusyTime[] = [],
): GridData {
  const grid: GridData = {
    events: [],
    holidays: new Map(),
    privateDays: new Map(),
    spans: [],
    firstHour: 7,
    lastHour: 20,
  };
  const freeEvents = new Set(free.map(freeEvent));
  for (const b of privateBusy) {
    if (b.allDay) {
      // Like a holiday, in the day's heading: the grid has no all-day row.
      const last = inBerlin(b.endDate).toPlainDate();
      for (
        let d = inBerlin(b.startDate).toPlainDate();
        Temporal.PlainDate.compare(d, last) < 0;
        d = d.add({ days: 1 })
      ) {
        const key = d.toString();
        grid.privateDays.set(key, [...(grid.privateDays.get(key) ?? []), b.coachId]);
      }
      continue;
    }
    const e = privateEvent(b);
    const start = berlinWallDate(b.startDate);
    const end = berlinWallDate(b.endDate);
    grid.firstHour = Math.min(grid.firstHour, start.getHours());
    const sameDay = end.toDateString() === start.toDateString();
    grid.lastHour = Math.max(
      grid.lastHour,
      sameDay ? end.getHours() + (end.getMinutes() > 0 ? 1 : 0) : 24,
    );
    grid.events.push({
      id: e.id,
      title: '',
      start,
      end,
      allDay: false,
      free: false,
      private: true,
      resourceId: b.coachId,
      source: e,
    });
  }
  for (const e of [...events, ...freeEvents]) {
    const start = berlinWallDate(e.startDate);
    const end = berlinWallDate(e.endDate);
    if (e.kind === 'holiday') {
      grid.holidays.set(inBerlin(e.startDate).toPlainDate().toString(), e.title);
      continue;
    }
    grid.firstHour = Math.min(grid.firstHour, start.getHours());
    const sameDay = end.toDateString() === start.toDateString();
    grid.lastHour = Math.max(
      grid.lastHour,
      sameDay ? end.getHours() + (end.getMinutes() > 0 ? 1 : 0) : 24,
    );
    const isFree = freeEvents.has(e);
    if (e.kind === 'appointment' || isFree) {
      grid.events.push({
        id: e.id,
        title: e.title,
        start,
        end,
        allDay: false,
        free: isFree,
        private: false,
        resourceId: e.coachId ?? undefined,
        source: e,
      });
    } else {
      grid.spans.push({
        kind: e.kind,
        coachId: e.coachId,
        start: start.getTime(),
        end: end.getTime(),
      });
    }
  }
  return grid;
}

/** The shading class of the slot starting at `slot` (blockers win over availability). */
export function slotKind(
  spans: readonly GridSpan[],
  slot: Date,
  coachId: string | null,
): GridSpan['kind'] | null {
  const t = slot.getTime();
  let kind: GridSpan['kind'] | null = null;
  for (const s of spans) {
    if (t < s.start || t >= s.end || (coachId !== null && s.coachId !== coachId)) continue;
    if (s.kind === 'blocker') return 'blocker';
    kind = 'availability';
  }
  return kind;
}

const AGE_UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/**
 * How old a kept copy is, in German words ("vor 5 Std.", "vor 2 Tagen"): the largest whole
 * unit, at least a minute.
 */
export function copyAge(lastSyncedAt: string, now: number): string {
  const ms = Math.max(0, now - Date.parse(lastSyncedAt));
  const format = new Intl.RelativeTimeFormat('de', { style: 'short', numeric: 'always' });
  for (const [unit, size] of AGE_UNITS) {
    if (ms >= size || unit === 'minute')
      return format.format(-Math.max(1, Math.floor(ms / size)), unit);
  }
  return '';
}
