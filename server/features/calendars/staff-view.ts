/**
 * What the staff calendar shows of a coach's connected calendars: the kept busy times that block
 * slots, merged per coach so that neither a title (never stored) nor the number or shape of the
 * private events shows, and each connection's state so a failing one's copy age can be shown.
 */
import { and, eq, gt, lt, or, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { calendarBusyTimes, calendarConnections, connectedCalendars } from '../../db/schema/index';

export interface PrivateBusyTime {
  coachId: string;
  startDate: string;
  endDate: string;
  allDay: boolean;
}

export interface PrivateCalendarState {
  coachId: string;
  failing: boolean;
  lastSyncedAt: string | null;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Overlapping or touching intervals of one coach and kind become one. */
export function mergeBusy(rows: readonly PrivateBusyTime[]): PrivateBusyTime[] {
  const sorted = [...rows]
    .map((r) => ({ ...r, s: Date.parse(r.startDate), e: Date.parse(r.endDate) }))
    .sort(
      (a, b) =>
        (a.coachId < b.coachId ? -1 : a.coachId > b.coachId ? 1 : 0) ||
        Number(b.allDay) - Number(a.allDay) ||
        a.s - b.s,
    );
  const out: { coachId: string; allDay: boolean; s: number; e: number }[] = [];
  for (const r of sorted) {
    const last = out.at(-1);
    if (last && last.coachId === r.coachId && last.allDay === r.allDay && r.s <= last.e) {
      last.e = Math.max(last.e, r.e);
    } else {
      out.push({ coachId: r.coachId, allDay: r.allDay, s: r.s, e: r.e });
    }
  }
  return out.map((r) => ({
    coachId: r.coachId,
    startDate: iso(r.s),
    endDate: iso(r.e),
    allDay: r.allDay,
  }));
}

/**
 * The private side of the calendar in [fromIso, toIso) for `coachId`, or every coach when null.
 * The caller decides who may see which coach, exactly as for the coach's appointments.
 */
export async function privateCalendarView(
  db: Db,
  coachId: string | null,
  fromIso: string,
  toIso: string,
): Promise<{ privateBusy: PrivateBusyTime[]; privateCalendars: PrivateCalendarState[] }> {
  const ofCoach = (
    column: typeof calendarConnections.coachId | typeof calendarBusyTimes.coachId,
  ): SQL | undefined => (coachId ? eq(column, coachId) : undefined);
  const busy = await db
    .select({
      coachId: calendarBusyTimes.coachId,
      startDate: calendarBusyTimes.startDate,
      endDate: calendarBusyTimes.endDate,
      allDay: calendarBusyTimes.allDay,
    })
    .from(calendarBusyTimes)
    .innerJoin(
      connectedCalendars,
      and(
        eq(connectedCalendars.id, calendarBusyTimes.calendarId),
        eq(connectedCalendars.blocks, true),
      ),
    )
    .innerJoin(calendarConnections, eq(calendarConnections.id, connectedCalendars.connectionId))
    .where(
      and(
        ofCoach(calendarBusyTimes.coachId),
        lt(calendarBusyTimes.startDate, toIso),
        gt(calendarBusyTimes.endDate, fromIso),
        // What blocks the slots, nothing else: all-day events only where the coach said so.
        or(eq(calendarBusyTimes.allDay, false), eq(calendarConnections.allDayBlocks, true)),
      ),
    );
  const connections = await db
    .select({
      coachId: calendarConnections.coachId,
      status: calendarConnections.status,
      lastSyncedAt: calendarConnections.lastSyncedAt,
    })
    .from(calendarConnections)
    .where(ofCoach(calendarConnections.coachId))
    .orderBy(calendarConnections.coachId, calendarConnections.id);
  return {
    privateBusy: mergeBusy(busy),
    privateCalendars: connections.map((c) => ({
      coachId: c.coachId,
      failing: c.status === 'failing',
      lastSyncedAt: c.lastSyncedAt,
    })),
  };
}

/** Whether a busy time of the appointment's coach overlaps it. */
export const overlapsPrivateBusy = (
  busy: readonly PrivateBusyTime[],
  a: { coachId: string; startDate: string; endDate: string },
) => {
  const s = Date.parse(a.startDate);
  const e = Date.parse(a.endDate);
  return busy.some(
    (b) => b.coachId === a.coachId && Date.parse(b.startDate) < e && Date.parse(b.endDate) > s,
  );
};
