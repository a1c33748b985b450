/**
 * Free slots: the one place that decides when a coach can be booked. Used by the slot
 * calls, the calendar, and the client booking (which accepts only what this offers).
 *
 * free(coach) = ∪ available occurrences − ∪ blocker occurrences − live appointments
 *   − busy times kept from the coach's connected calendars (never read live from a calendar
 *   server here, so one cannot slow or block a booking)
 *   − public holidays of the practice's federal state (./holidays.ts),
 * then slot starts on the step grid with the whole duration free and not before `notBefore`.
 *
 * The grid is counted from local midnight; because Europe/Berlin is always a whole number
 * of hours from UTC and the step divides 60 minutes, the local grid is the UTC grid and
 * stays right across daylight-saving changes without per-slot time-zone arithmetic.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { expandOccurrences, type OverrideFields } from '../availability/index';
import { rowsOf } from '../../db/raw-rows';
import { holidaysBetween } from './holidays';

/** Longest appointment (server/features/appointments): bounds the appointment scan. */
const MAX_APPOINTMENT_MS = 12 * 60 * 60_000;
const DAY_MS = 24 * 60 * 60_000;

/**
 * A calendar: one coach, the pooled initial-meetings calendar (active coaches who take
 * initial appointments), or every active coach.
 */
export type Calendar =
  { kind: 'coach'; coachId: string } | { kind: 'initial-meetings' } | { kind: 'all' };

export const INITIAL_MEETINGS = 'initial-meetings';

export interface CoachRef {
  id: string;
  firstName: string;
  lastName: string;
}

export interface Slot {
  start: number;
  end: number;
  coach: CoachRef;
}

type Interval = [number, number];

function coachFilter(calendar: Calendar, column: SQL): SQL {
  switch (calendar.kind) {
    case 'coach':
      return sql`${column} = ${calendar.coachId}::uuid`;
    case 'initial-meetings':
      return sql`${column} IN (SELECT id FROM coaches WHERE active AND takes_initial_appointments)`;
    case 'all':
      return sql`${column} IN (SELECT id FROM coaches WHERE active)`;
  }
}

/**
 * One row of the single statement freeTime sends: 'c' a coach (a, b = names), 'a' an
 * availability (a = kind, b = start day, c = start time, d = end time, e = rule,
 * o = overrides), 'b' a coach's live appointments (a = count, b = "start end …" in epoch ms),
 * 'p' the kept busy times of their connected calendars (b as for 'b').
 */
interface TimeRow extends Record<string, unknown> {
  k: 'c' | 'a' | 'b' | 'p';
  coach_id: string;
  a: string | null;
  b: string | null;
  c: string | null;
  d: string | null;
  e: string | null;
  o: OverrideFields[] | null;
}

export interface CoachTime {
  coach: CoachRef;
  /** Free intervals in start order. */
  free: Interval[];
  /** Live appointments overlapping the window (the pooled calendar's fairness measure). */
  booked: number;
}

/** Sorted, merged union of intervals. */
function merge(intervals: Interval[]): Interval[] {
  intervals.sort((a, b) => a[0] - b[0]);
  const out: Interval[] = [];
  for (const [s, e] of intervals) {
    const last = out[out.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
}

/** `free` minus the merged, sorted `busy` intervals. */
function subtract(free: Interval[], busy: Interval[]): Interval[] {
  const out: Interval[] = [];
  let j = 0;
  for (const [fs, fe] of free) {
    let s = fs;
    while (j < busy.length && busy[j]![1] <= s) j++;
    let k = j;
    while (k < busy.length && busy[k]![0] < fe) {
      const [bs, be] = busy[k]!;
      if (bs > s) out.push([s, bs]);
      s = Math.max(s, be);
      k++;
    }
    if (s < fe) out.push([s, fe]);
  }
  return out;
}

/**
 * Each coach's free time in [from, to): three queries (coaches, availability with their
 * overrides, live appointments as epoch milliseconds), run together.
 */
export async function freeTime(
  db: Db | Tx,
  calendar: Calendar,
  from: number,
  to: number,
  /** An appointment to leave out (the one being moved). */
  ignoreAppointment?: string,
  /** Time nobody is free whatever their availability says (public holidays). */
  closed: readonly Interval[] = [],
): Promise<CoachTime[]> {
  const fromIso = new Date(from).toISOString();
  const toIso = new Date(to).toISOString();
  const scanFrom = new Date(from - MAX_APPOINTMENT_MS).toISOString();
  // One statement, one round trip: the coaches, their availability with overrides, and
  // their live appointments aggregated per coach as text (far cheaper to hand over and
  // parse than one row per appointment).
  const result = await db.execute<TimeRow>(sql`
    SELECT 'c' AS k, id AS coach_id, first_name AS a, last_name AS b,
           NULL::text AS c, NULL::text AS d, NULL::text AS e, NULL::json AS o
      FROM coaches WHERE active AND ${coachFilter(calendar, sql`id`)}
    UNION ALL
    SELECT 'a', av.coach_id, av.kind, av.start_day::text, av.start_time::text, av.end_time::text,
           av.recurrence,
           (SELECT json_agg(json_build_object(
                     'occurrenceDate', o.occurrence_date::text, 'cancelled', o.cancelled,
                     'startDate', o.start_date, 'endDate', o.end_date))
              FROM availability_overrides o WHERE o.availability_id = av.id)
      FROM availabilities av
     WHERE ${coachFilter(calendar, sql`av.coach_id`)}
       AND av.series_start < ${toIso}::timestamptz
       AND (av.series_end IS NULL OR av.series_end > ${fromIso}::timestamptz)
    UNION ALL
    SELECT 'b', coach_id, count(*)::text,
           string_agg((extract(epoch FROM start_date) * 1000)::int8::text || ' ' ||
                      (extract(epoch FROM end_date) * 1000)::int8::text, ' '),
           NULL, NULL, NULL, NULL
      FROM appointments
     WHERE ${coachFilter(calendar, sql`coach_id`)}
       AND cancelled_at IS NULL
       AND start_date >= ${scanFrom}::timestamptz
       AND start_date < ${toIso}::timestamptz
       AND end_date > ${fromIso}::timestamptz
       ${ignoreAppointment ? sql`AND id <> ${ignoreAppointment}::uuid` : sql``}
     GROUP BY coach_id
    UNION ALL
    SELECT 'p', bt.coach_id, NULL,
           string_agg((extract(epoch FROM bt.start_date) * 1000)::int8::text || ' ' ||
                      (extract(epoch FROM bt.end_date) * 1000)::int8::text, ' '),
           NULL, NULL, NULL, NULL
      FROM calendar_busy_times bt
      JOIN connected_calendars cc ON cc.id = bt.calendar_id AND cc.blocks
      JOIN calendar_connections cn ON cn.id = cc.connection_id
     WHERE ${coachFilter(calendar, sql`bt.coach_id`)}
       -- Overlap as ranges, so calendar_busy_times_coach_range_idx reads only the window's rows.
       AND tstzrange(bt.start_date, bt.end_date) && tstzrange(${fromIso}::timestamptz, ${toIso}::timestamptz)
       AND (NOT bt.all_day OR cn.all_day_blocks)
     GROUP BY bt.coach_id`);
  const rows = rowsOf<TimeRow>(result);

  const coaches = new Map<
    string,
    { coach: CoachRef; available: Interval[]; busy: Interval[]; booked: number }
  >();
  for (const r of rows) {
    if (r.k !== 'c') continue;
    coaches.set(r.coach_id, {
      coach: { id: r.coach_id, firstName: r.a!, lastName: r.b! },
      available: [],
      busy: [],
      booked: 0,
    });
  }
  for (const r of rows) {
    const entry = coaches.get(r.coach_id);
    if (!entry || r.k === 'c') continue;
    if (r.k === 'b' || r.k === 'p') {
      const numbers = r.b!.split(' ');
      for (let i = 0; i + 1 < numbers.length; i += 2) {
        entry.busy.push([+numbers[i]!, +numbers[i + 1]!]);
      }
      if (r.k === 'b') entry.booked = Number(r.a);
      continue;
    }
    const overrides = (r.o ?? []).map((o) => ({
      ...o,
      // json_build_object renders timestamptz in the session's zone; normalise to ISO.
      startDate: o.startDate ? new Date(o.startDate).toISOString() : null,
      endDate: o.endDate ? new Date(o.endDate).toISOString() : null,
    }));
    const series = { startDay: r.b!, startTime: r.c!, endTime: r.d!, recurrence: r.e };
    const target = r.a === 'available' ? entry.available : entry.busy;
    for (const o of expandOccurrences(series, overrides, from, to)) target.push([o.start, o.end]);
  }
  const out: CoachTime[] = [];
  for (const { coach, available, busy, booked } of coaches.values()) {
    const free = subtract(
      merge(available).map(([s, e]) => [Math.max(s, from), Math.min(e, to)] as Interval),
      merge([...busy, ...closed]),
    ).filter(([s, e]) => e > s);
    out.push({ coach, free, booked });
  }
  return out;
}

/** Slot starts on the step grid inside `free` where `duration` fits, start ≥ notBefore. */
export function gridStarts(
  free: readonly Interval[],
  durationMs: number,
  stepMs: number,
  notBefore: number,
  windowEnd: number,
): number[] {
  const out: number[] = [];
  for (const [s, e] of free) {
    const lower = Math.max(s, notBefore);
    for (
      let t = Math.ceil(lower / stepMs) * stepMs;
      t + durationMs <= e && t < windowEnd;
      t += stepMs
    ) {
      out.push(t);
    }
  }
  return out;
}

export interface SlotQuery {
  calendar: Calendar;
  from: number;
  to: number;
  durationMinutes: number;
  stepMinutes: number;
  /** No slot starts before this instant (now plus the minimum notice). */
  notBefore: number;
  /** The appointment being moved: its time counts as free. */
  ignoreAppointment?: string | undefined;
  /** Pooled calendar: this coach (the moved appointment's) gets every start where free. */
  prefer?: string | undefined;
  /** Federal state (HOLIDAY_STATE) whose public holidays offer no slot. */
  holidayState: string;
  /** Pooled calendar: list every coach's slot instead of one per start (the staff view). */
  perCoach?: boolean;
}

/** The state's public holidays touching [from, to) as closed intervals. */
const closedOn = (state: string, from: number, to: number): Interval[] =>
  holidaysBetween(state, from, to).map((h) => [h.start, h.end]);

/**
 * Free slots of a calendar, in start order. Coach calendars and `all` list every coach's
 * slot; the pooled initial-meetings calendar lists each start once, with the free coach
 * who has the fewest appointments in the window (ties by id), so the client sees times.
 */
export async function listSlots(db: Db | Tx, q: SlotQuery): Promise<Slot[]> {
  const durationMs = q.durationMinutes * 60_000;
  const stepMs = q.stepMinutes * 60_000;
  // A slot starting just before `to` may run past it: read that far.
  const end = q.to + durationMs;
  const times = await freeTime(
    db,
    q.calendar,
    q.from,
    end,
    q.ignoreAppointment,
    closedOn(q.holidayState, q.from, end),
  );
  const from = Math.max(q.from, q.notBefore);
  if (q.calendar.kind !== 'initial-meetings' || q.perCoach) {
    const slots: Slot[] = [];
    for (const t of times) {
      for (const start of gridStarts(t.free, durationMs, stepMs, from, q.to)) {
        slots.push({ start, end: start + durationMs, coach: t.coach });
      }
    }
    return slots.sort((a, b) => a.start - b.start || (a.coach.id < b.coach.id ? -1 : 1));
  }
  // The preferred coach, then least booked first; the first free coach seen for a start keeps
  // it. Starts are on the grid, so a typed array indexed by grid step stands in for a map.
  times.sort(
    (a, b) =>
      Number(b.coach.id === q.prefer) - Number(a.coach.id === q.prefer) ||
      a.booked - b.booked ||
      (a.coach.id < b.coach.id ? -1 : 1),
  );
  const origin = Math.floor(q.from / stepMs) * stepMs;
  const owner = new Int32Array(Math.ceil((q.to - origin) / stepMs) + 1).fill(-1);
  times.forEach((t, index) => {
    for (const start of gridStarts(t.free, durationMs, stepMs, from, q.to)) {
      const cell = (start - origin) / stepMs;
      if (owner[cell] === -1) owner[cell] = index;
    }
  });
  const slots: Slot[] = [];
  owner.forEach((index, cell) => {
    if (index === -1) return;
    const start = origin + cell * stepMs;
    slots.push({ start, end: start + durationMs, coach: times[index]!.coach });
  });
  return slots;
}

/**
 * The coaches of a calendar for whom [start, start + duration) is a free slot on the grid,
 * after `notBefore`, off the state's public holidays. Booking offers exactly what listSlots shows.
 */
export async function freeCoachesAt(
  db: Db | Tx,
  calendar: Calendar,
  start: number,
  durationMinutes: number,
  stepMinutes: number,
  notBefore: number,
  holidayState: string,
  ignoreAppointment?: string,
): Promise<CoachRef[]> {
  const durationMs = durationMinutes * 60_000;
  const stepMs = stepMinutes * 60_000;
  if (start % stepMs !== 0 || start < notBefore) return [];
  const end = start + durationMs;
  const times = await freeTime(
    db,
    calendar,
    start,
    end,
    ignoreAppointment,
    closedOn(holidayState, start, end),
  );
  return times
    .filter((t) => t.free.some(([s, e]) => s <= start && start + durationMs <= e))
    .map((t) => t.coach);
}

/**
 * Whether [start, end) lies wholly in the coach's free time: inside their availability, clear
 * of blockers and of live appointments other than `ignoreAppointment`. Staff moves check
 * this; unlike a slot, any minute may start it (staff are not bound to the step grid).
 * Public holidays are the caller's to check (a move says which holiday it meets).
 */
export async function coachFreeFor(
  db: Db | Tx,
  coachId: string,
  start: number,
  end: number,
  ignoreAppointment?: string,
): Promise<boolean> {
  const [time] = await freeTime(db, { kind: 'coach', coachId }, start, end, ignoreAppointment);
  return time?.free.some(([s, e]) => s <= start && end <= e) ?? false;
}

export const isoSlot = (slot: Slot) => ({
  startDate: new Date(slot.start).toISOString(),
  endDate: new Date(slot.end).toISOString(),
  coachId: slot.coach.id,
  coach: slot.coach,
});

export { DAY_MS };
