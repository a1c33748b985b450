/**
 * Busy intervals of one calendar object (an iCalendar text as a CalDAV server holds it):
 * only when, never what. ical.js reads the format; recurrences are expanded by rrule-temporal
 * in the event's own zone, like availability, so 09:00 in New York stays 09:00 there across
 * both countries' daylight-saving changes.
 *
 * - TRANSP:TRANSPARENT (shown as "free") and STATUS:CANCELLED never block.
 * - All-day events cover whole days in the practice's zone and are marked, so the connection's
 *   setting can decide whether they block.
 * - A TZID Temporal does not know (Outlook's "W. Europe Standard Time") is read through the
 *   object's VTIMEZONE, at the offset it has on the event's first day.
 * - Floating times (no zone) are the practice's local time.
 * - The caller may name UIDs that never block: the appointments the app wrote into the
 *   coach's calendar are already in the slot computation as appointments.
 */
import ICAL from 'ical.js';
import { Temporal } from '@js-temporal/polyfill';
import { RRuleTemporal } from 'rrule-temporal';
import { ZONE } from '../../../shared/time';

export interface BusyInterval {
  start: number;
  end: number;
  allDay: boolean;
}

/** Occurrences of one event beyond this many are not expanded (a runaway rule). */
const MAX_OCCURRENCES = 5000;

type Comp = InstanceType<typeof ICAL.Component>;
type Time = InstanceType<typeof ICAL.Time>;

const knownZones = new Map<string, boolean>();
function isKnownZone(id: string): boolean {
  let known = knownZones.get(id);
  if (known === undefined) {
    try {
      Temporal.Now.zonedDateTimeISO(id);
      known = true;
    } catch {
      known = false;
    }
    knownZones.set(id, known);
  }
  return known;
}

/** A start (or end) as a Temporal ZonedDateTime in the zone the event was written in. */
function zonedOf(prop: ICAL.Property, vtimezones: Map<string, Comp>): Temporal.ZonedDateTime {
  const time = prop.getFirstValue() as Time;
  const plain = Temporal.PlainDateTime.from({
    year: time.year,
    month: time.month,
    day: time.day,
    hour: time.isDate ? 0 : time.hour,
    minute: time.isDate ? 0 : time.minute,
    second: time.isDate ? 0 : Math.min(time.second, 59),
  });
  if (time.isDate) return plain.toZonedDateTime(ZONE);
  const tzid = prop.getParameter('tzid') as string | undefined;
  if (time.zone?.tzid === 'UTC') {
    return plain.toZonedDateTime('UTC');
  }
  if (!tzid) return plain.toZonedDateTime(ZONE);
  if (isKnownZone(tzid)) return plain.toZonedDateTime(tzid);
  const vtimezone = vtimezones.get(tzid);
  if (vtimezone) {
    const offsetSeconds = new ICAL.Timezone(vtimezone).utcOffset(time);
    const sign = offsetSeconds < 0 ? '-' : '+';
    const abs = Math.abs(offsetSeconds);
    const offset = `${sign}${String(Math.floor(abs / 3600)).padStart(2, '0')}:${String(Math.floor((abs % 3600) / 60)).padStart(2, '0')}`;
    return plain.toZonedDateTime(offset);
  }
  return plain.toZonedDateTime(ZONE);
}

interface EventTimes {
  start: Temporal.ZonedDateTime;
  /** Exact length for timed events; whole days for all-day ones. */
  durationMs: number;
  days: number;
  allDay: boolean;
}

function timesOf(event: Comp, vtimezones: Map<string, Comp>): EventTimes | null {
  const dtstart = event.getFirstProperty('dtstart');
  if (!dtstart) return null;
  const start = zonedOf(dtstart, vtimezones);
  const allDay = (dtstart.getFirstValue() as Time).isDate;
  const dtend = event.getFirstProperty('dtend');
  const duration = event.getFirstPropertyValue('duration') as InstanceType<
    typeof ICAL.Duration
  > | null;
  if (allDay) {
    let days = 1;
    if (dtend) {
      days = start.toPlainDate().until(zonedOf(dtend, vtimezones).toPlainDate()).days;
    } else if (duration) {
      days = Math.round(duration.toSeconds() / 86_400);
    }
    return { start, durationMs: 0, days: Math.max(days, 1), allDay };
  }
  let durationMs = 0;
  if (dtend) durationMs = zonedOf(dtend, vtimezones).epochMilliseconds - start.epochMilliseconds;
  else if (duration) durationMs = duration.toSeconds() * 1000;
  return { start, durationMs, days: 0, allDay };
}

function intervalAt(start: Temporal.ZonedDateTime, times: EventTimes): BusyInterval {
  if (times.allDay) {
    const day = start.toPlainDate();
    return {
      start: day.toZonedDateTime(ZONE).epochMilliseconds,
      end: day.add({ days: times.days }).toZonedDateTime(ZONE).epochMilliseconds,
      allDay: true,
    };
  }
  return {
    start: start.epochMilliseconds,
    end: start.epochMilliseconds + times.durationMs,
    allDay: false,
  };
}

const blocks = (event: Comp) =>
  String(event.getFirstPropertyValue('transp') ?? '').toUpperCase() !== 'TRANSPARENT' &&
  String(event.getFirstPropertyValue('status') ?? '').toUpperCase() !== 'CANCELLED';

/** The instant an occurrence is identified by (RECURRENCE-ID, EXDATE), in epoch ms. */
function idOf(prop: ICAL.Property, value: Time, vtimezones: Map<string, Comp>): number {
  const copy = new ICAL.Property(prop.name);
  const tzid = prop.getParameter('tzid');
  if (tzid) copy.setParameter('tzid', tzid);
  copy.setValue(value);
  return zonedOf(copy, vtimezones).epochMilliseconds;
}

/**
 * The busy intervals of an iCalendar object overlapping [from, until), in start order.
 * Throws on text that is not iCalendar (the sync records the object as unreadable).
 */
export function busyIntervals(
  ics: string,
  from: number,
  until: number,
  /** Events this answers true for block nothing (the app's own appointments, written back). */
  skipUid?: (uid: string) => boolean,
): BusyInterval[] {
  const root = new ICAL.Component(ICAL.parse(ics));
  const vtimezones = new Map<string, Comp>();
  for (const vtz of root.getAllSubcomponents('vtimezone')) {
    const id = vtz.getFirstPropertyValue('tzid');
    if (typeof id === 'string') vtimezones.set(id, vtz);
  }
  const events = root.getAllSubcomponents('vevent');
  // Moved or cancelled occurrences of a series replace the occurrence they name.
  const replaced = new Set<number>();
  for (const event of events) {
    const rid = event.getFirstProperty('recurrence-id');
    if (rid) replaced.add(idOf(rid, rid.getFirstValue() as Time, vtimezones));
  }
  const out: BusyInterval[] = [];
  const keep = (interval: BusyInterval) => {
    if (interval.end > interval.start && interval.start < until && interval.end > from) {
      out.push(interval);
    }
  };
  for (const event of events) {
    if (!blocks(event)) continue;
    const uid = event.getFirstPropertyValue('uid');
    if (skipUid && typeof uid === 'string' && skipUid(uid)) continue;
    const times = timesOf(event, vtimezones);
    if (!times) continue;
    const rrule = event.getFirstPropertyValue('rrule') as InstanceType<typeof ICAL.Recur> | null;
    if (!rrule || event.getFirstProperty('recurrence-id')) {
      keep(intervalAt(times.start, times));
      continue;
    }
    const excluded = new Set(replaced);
    for (const prop of event.getAllProperties('exdate')) {
      for (const value of prop.getValues() as Time[]) excluded.add(idOf(prop, value, vtimezones));
    }
    const rule = new RRuleTemporal({
      rruleString: rrule.toString(),
      dtstart: times.start as never,
      temporal: Temporal as never,
    });
    // An occurrence that starts before `from` may still run into it.
    const reach = Math.max(times.durationMs, times.days * 86_400_000) + 86_400_000;
    const starts = rule.between(new Date(from - reach), new Date(until), true);
    for (const start of starts.slice(0, MAX_OCCURRENCES) as unknown as Temporal.ZonedDateTime[]) {
      if (excluded.has(start.epochMilliseconds)) continue;
      keep(intervalAt(start, times));
    }
  }
  return out.sort((a, b) => a.start - b.start);
}
