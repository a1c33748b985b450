import { Temporal } from '@js-temporal/polyfill';
import type { CalendarEvent } from '../../machines/scheduling/shared';
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

export function toGridData(
  events: readonly CalendarEvent[],
  free: readonly FreeStretch[] = [],
): GridData {
  const grid: GridData = { events: [], holidays: new Map(), spans: [], firstHour: 7, lastHour: 20 };
  const freeEvents = new Set(free.map(freeEvent));
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
