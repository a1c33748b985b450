import type { Temporal } from '@js-temporal/polyfill';
import { berlinDate } from '../../../shared/time';
import type { CalendarEvent, CoachOption, FreeSlot } from './shared';

/**
 * The initial-meetings calendar's data and how the page groups it: the server lists every free
 * start of every coach; a person reads them as stretches ("frei 09:00–12:00"), so consecutive
 * or overlapping slots of one coach merge into one.
 */
export interface InitialCalendar {
  coaches: CoachOption[];
  slots: FreeSlot[];
  /** Booked initial appointments and holidays. */
  events: CalendarEvent[];
}

export interface FreeStretch {
  coachId: string;
  startDate: string;
  endDate: string;
}

/** Free time of each coach (or only `coachId`'s) as merged stretches, by start then coach. */
export function freeStretches(slots: readonly FreeSlot[], coachId: string | null): FreeStretch[] {
  const byCoach = new Map<string, FreeSlot[]>();
  for (const s of slots) {
    if (coachId !== null && s.coachId !== coachId) continue;
    byCoach.set(s.coachId, [...(byCoach.get(s.coachId) ?? []), s]);
  }
  const out: FreeStretch[] = [];
  for (const [coach, list] of byCoach) {
    const sorted = [...list].sort((a, b) => Date.parse(a.startDate) - Date.parse(b.startDate));
    let current: FreeStretch | null = null;
    for (const s of sorted) {
      if (current && Date.parse(s.startDate) <= Date.parse(current.endDate)) {
        if (Date.parse(s.endDate) > Date.parse(current.endDate)) current.endDate = s.endDate;
        continue;
      }
      current = { coachId: coach, startDate: s.startDate, endDate: s.endDate };
      out.push(current);
    }
  }
  return out.sort(
    (a, b) => Date.parse(a.startDate) - Date.parse(b.startDate) || (a.coachId < b.coachId ? -1 : 1),
  );
}

/** Booked appointments of the coach (all when null) and every holiday. */
export const eventsOf = (events: readonly CalendarEvent[], coachId: string | null) =>
  events.filter((e) => e.kind === 'holiday' || coachId === null || e.coachId === coachId);

export type AgendaEntry =
  { kind: 'free'; startDate: string; endDate: string } | { kind: 'booked'; event: CalendarEvent };

export interface CoachAgenda {
  coach: CoachOption;
  entries: AgendaEntry[];
}

/**
 * One day as a list per coach (the phone view): each coach's free stretches and booked
 * appointments in time order. A coach with neither that day is left out.
 */
export function dayAgenda(
  data: InitialCalendar,
  coachId: string | null,
  day: Temporal.PlainDate,
): CoachAgenda[] {
  const onDay = (iso: string) => berlinDate(iso).equals(day);
  const free = freeStretches(data.slots, coachId).filter((s) => onDay(s.startDate));
  const booked = eventsOf(data.events, coachId).filter(
    (e) => e.kind === 'appointment' && onDay(e.startDate),
  );
  const out: CoachAgenda[] = [];
  for (const coach of data.coaches) {
    if (coachId !== null && coach.id !== coachId) continue;
    const entries: AgendaEntry[] = [
      ...free
        .filter((s) => s.coachId === coach.id)
        .map((s) => ({ kind: 'free' as const, startDate: s.startDate, endDate: s.endDate })),
      ...booked
        .filter((e) => e.coachId === coach.id)
        .map((event) => ({ kind: 'booked' as const, event })),
    ];
    const start = (e: AgendaEntry) =>
      Date.parse(e.kind === 'free' ? e.startDate : e.event.startDate);
    entries.sort((a, b) => start(a) - start(b));
    if (entries.length > 0) out.push({ coach, entries });
  }
  return out;
}

/** The Berlin holiday name of the day, if it is one. */
export const holidayOn = (events: readonly CalendarEvent[], day: Temporal.PlainDate) =>
  events.find((e) => e.kind === 'holiday' && berlinDate(e.startDate).equals(day))?.title;
