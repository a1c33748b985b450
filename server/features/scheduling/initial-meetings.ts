/**
 * The initial-meetings calendar as onboarding managers see it: per coach of the pool, the free
 * initial slots (what a client could book, but every free coach's, not only the one the pool
 * would pick), the live initial appointments and the holidays, in one answer.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { coaches } from '../../db/schema/index';
import { bookedAppointments } from './booked';
import type { Handler } from '../../http/handler';
import { isoOfMs } from '../../time';
import { queryWindow, ZONE } from '../availability/index';
import { holidayEvents } from './holiday-events';
import { isoSlot, listSlots, type CoachRef } from './slots';

const MAX_DAYS = 62;
/** What the clients' pickers book (src/machines/pre-appointment.machine.ts). */
const INITIAL_MINUTES = 30;

export const initialMeetingsCalendar: Handler<'getInitialMeetingsCalendar'> = async ({
  query,
  deps,
}) => {
  const { from, to } = queryWindow(query.startDate, query.endDate, MAX_DAYS);
  const fromIso = isoOfMs(from);
  const toIso = isoOfMs(to);
  const [slots, booked, pool] = await Promise.all([
    listSlots(deps.db, {
      calendar: { kind: 'initial-meetings' },
      from,
      to,
      durationMinutes: query.duration ?? INITIAL_MINUTES,
      stepMinutes: deps.config.SLOT_STEP_MINUTES,
      // Past times are no longer free to anyone.
      notBefore: Math.max(from, deps.now().getTime()),
      holidayState: deps.config.HOLIDAY_STATE,
      perCoach: true,
    }),
    bookedAppointments(deps.db, { fromIso, toIso }, { appointmentType: 'initial' }),
    deps.db
      .select({ id: coaches.id, firstName: coaches.firstName, lastName: coaches.lastName })
      .from(coaches)
      .where(and(eq(coaches.active, true), eq(coaches.takesInitialAppointments, true))),
  ]);
  // A coach who left the pool keeps their booked initial appointments: they get a column too.
  const known = new Set(pool.map((c) => c.id));
  const missing = [...new Set(booked.map((b) => b.coachId))].filter((id) => !known.has(id));
  const others: CoachRef[] = missing.length
    ? await deps.db
        .select({ id: coaches.id, firstName: coaches.firstName, lastName: coaches.lastName })
        .from(coaches)
        .where(inArray(coaches.id, missing))
    : [];
  const byName = (a: CoachRef, b: CoachRef) =>
    a.lastName.localeCompare(b.lastName, 'de') || a.firstName.localeCompare(b.firstName, 'de');
  return {
    timeZone: ZONE as 'Europe/Berlin',
    coaches: [...pool, ...others].sort(byName),
    slots: slots.map(isoSlot),
    events: [
      ...holidayEvents(deps.config.HOLIDAY_STATE, from, to),
      ...booked.map((a) => ({
        id: a.id,
        kind: 'appointment' as const,
        startDate: a.startDate,
        endDate: a.endDate,
        title: `${a.firstName} ${a.lastName}`.slice(0, 300),
        coachId: a.coachId,
        appointmentId: a.id,
        appointmentType: 'initial' as const,
        availabilityId: null,
        occurrenceDate: null,
        isProvisional: a.isProvisional,
      })),
    ],
  };
};
