import { and, eq } from 'drizzle-orm';
import { instantOf, isoOfMs, minutesBetween } from '../../time';
import { availabilities, coaches } from '../../db/schema/index';
import { bookedAppointments } from './booked';
import type { Principal } from '../../http/auth';
import { coachLimit, reachesCoach, reachOf } from '../../access/policy';
import type { FastifyReply } from 'fastify';
import { defineHandlers, type AppDeps, type Result } from '../../http/handler';
import { notFound } from '../../http/problem';
import {
  availabilityScope,
  overlapsWindow,
  queryWindow,
  selectAvailabilities,
  toAvailability,
  ZONE,
} from '../availability/index';
import { holidayEvents } from './holiday-events';
import { overlapsPrivateBusy, privateCalendarView } from '../calendars/index';
import { initialMeetingsCalendar } from './initial-meetings';
import { rescheduledAppointment } from './rescheduled';
import { slotCacheFor } from './slot-cache';
import { compactSlots } from './compact';
import { INITIAL_MEETINGS, isoSlot, listSlots, type Calendar, type Slot } from './slots';

type SlotsAnswer = Result<'getInitialAppointmentSlots'>;

const MAX_SLOT_DAYS = 62;

/** What a client may book: now plus the booking notice (epoch ms, for the slot loop). */
export const clientNotBefore = (deps: AppDeps) =>
  instantOf(deps.now()).add({ hours: deps.config.CLIENT_BOOKING_NOTICE_HOURS }).epochMilliseconds;

/** Coaches see only their own calendar; asking for another coach's is a 404. */
function calendarFor(principal: Principal, calendarId: string): Calendar {
  if (!reachesCoach(principal, calendarId)) throw notFound('calendar');
  return calendarId === INITIAL_MEETINGS
    ? { kind: 'initial-meetings' }
    : { kind: 'coach', coachId: calendarId };
}

type SlotForm = 'full' | 'compact';

interface SlotWindowQuery {
  startDate: string;
  endDate: string;
  duration: number;
  form?: SlotForm | undefined;
}

/**
 * The answer in the form asked for, serialised with that form's own schema from the contract
 * (the route's 200 is a oneOf of the two; a serialiser for the oneOf would first validate the
 * whole answer against each form to pick one).
 */
function serialiseSlots(
  reply: FastifyReply,
  form: SlotForm,
  found: readonly Slot[],
  durationMinutes: number,
): string {
  const schema = reply.request.routeOptions.schema?.response as
    | Record<string, { content: Record<string, { schema: { oneOf: Record<string, unknown>[] } }> }>
    | undefined;
  const [full, compact] = schema!['200']!.content['application/json']!.schema.oneOf;
  return form === 'compact'
    ? reply.serializeInput({ ...compactSlots(found, durationMinutes) }, compact!)
    : reply.serializeInput({ timeZone: ZONE, slots: found.map(isoSlot) }, full!);
}

/** Fastify sends a string with a JSON content type as it is. */
function sendJson(reply: FastifyReply, body: string): SlotsAnswer {
  reply.header('content-type', 'application/json; charset=utf-8');
  return body as unknown as SlotsAnswer;
}

/**
 * The slot answer, serialised by the route's own response schema and kept in the slot cache:
 * a repeated request costs one fingerprint read (see slot-cache.ts).
 */
async function slots(
  deps: AppDeps,
  reply: FastifyReply,
  calendar: Calendar,
  query: SlotWindowQuery,
  notBefore: number,
): Promise<SlotsAnswer> {
  const { from, to } = queryWindow(query.startDate, query.endDate, MAX_SLOT_DAYS);
  const form = query.form ?? 'full';
  const key = {
    calendar,
    from,
    to,
    durationMinutes: query.duration,
    stepMinutes: deps.config.SLOT_STEP_MINUTES,
    holidayState: deps.config.HOLIDAY_STATE,
  };
  const body = await slotCacheFor(deps.db).body(
    deps.db,
    key,
    notBefore,
    () => listSlots(deps.db, { ...key, notBefore: from }),
    (found) => serialiseSlots(reply, form, found, query.duration),
    form,
  );
  return sendJson(reply, body);
}

export const schedulingHandlers = defineHandlers({
  getInitialMeetingsCalendar: initialMeetingsCalendar,

  async listAvailableSlots({ query, principal, deps, reply }) {
    // Coaches see their own calendar only (a coach account without a coach record: none).
    const reach = reachOf(principal);
    if (reach.kind === 'none') {
      queryWindow(query.startDate, query.endDate, MAX_SLOT_DAYS);
      return sendJson(reply, serialiseSlots(reply, query.form ?? 'full', [], query.duration));
    }
    const calendar: Calendar = reach.kind === 'coach' ? reach : { kind: 'all' };
    return slots(deps, reply, calendar, query, deps.now().getTime());
  },

  async listAvailableSlotsForCalendar({ params, query, principal, deps, reply }) {
    const calendar = calendarFor(principal, params.calendarid);
    if (calendar.kind === 'coach') {
      const [coach] = await deps.db
        .select({ id: coaches.id })
        .from(coaches)
        .where(eq(coaches.id, calendar.coachId));
      if (!coach) throw notFound('calendar');
    }
    return slots(deps, reply, calendar, query, deps.now().getTime());
  },

  async getInitialAppointmentSlots({ query, principal, deps, reply }) {
    const { rescheduleOf, ...window } = query;
    if (!rescheduleOf) {
      return slots(deps, reply, { kind: 'initial-meetings' }, window, clientNotBefore(deps));
    }
    // A reschedule's slots name the coach the move gets (rescheduleInitialAppointment keeps
    // the current coach where free), so the client confirms the coach they will have. Per
    // appointment, so not from the shared slot cache.
    const moving = await rescheduledAppointment(deps.db, principal, rescheduleOf);
    if (!moving) throw notFound('appointment');
    const { from, to } = queryWindow(window.startDate, window.endDate, MAX_SLOT_DAYS);
    const durationMinutes = minutesBetween(moving.startDate, moving.endDate);
    const free = await listSlots(deps.db, {
      calendar: { kind: 'initial-meetings' },
      from,
      to,
      durationMinutes,
      stepMinutes: deps.config.SLOT_STEP_MINUTES,
      notBefore: clientNotBefore(deps),
      ignoreAppointment: moving.id,
      prefer: moving.coachId,
      holidayState: deps.config.HOLIDAY_STATE,
    });
    return sendJson(reply, serialiseSlots(reply, window.form ?? 'full', free, durationMinutes));
  },

  async listCalendarEvents({ query, principal, deps }) {
    const { from, to } = queryWindow(query.startDate, query.endDate, MAX_SLOT_DAYS);
    const fromIso = isoOfMs(from);
    const toIso = isoOfMs(to);
    // A coach asking for another coach's calendar sees no coach events.
    const limit = coachLimit(principal, query.coachId);
    const blocked = limit === null;
    const coachId = limit ?? null;
    const events = [];
    // The private side follows the appointments' rule: whoever sees a coach's appointments here
    // sees when that coach is privately busy, and nothing else about it.
    let privateSide: Awaited<ReturnType<typeof privateCalendarView>> = {
      privateBusy: [],
      privateCalendars: [],
    };
    if (!blocked) {
      // From 12 hours earlier, like the appointments, so one that began before the window is
      // still marked.
      privateSide = await privateCalendarView(
        deps.db,
        coachId,
        isoOfMs(from - 12 * 60 * 60_000),
        toIso,
      );
      const rows = await bookedAppointments(deps.db, { fromIso, toIso }, { coachId });
      for (const a of rows) {
        events.push({
          id: a.id,
          kind: 'appointment' as const,
          startDate: a.startDate,
          endDate: a.endDate,
          title: `${a.firstName} ${a.lastName}`.slice(0, 300),
          coachId: a.coachId,
          appointmentId: a.id,
          appointmentType: a.appointmentType,
          availabilityId: null,
          occurrenceDate: null,
          isProvisional: a.isProvisional,
          privateConflict: overlapsPrivateBusy(privateSide.privateBusy, a),
        });
      }
      const series = await selectAvailabilities(
        deps.db,
        and(
          overlapsWindow(fromIso, toIso),
          availabilityScope(principal),
          coachId ? eq(availabilities.coachId, coachId) : undefined,
        ),
      );
      for (const s of series) {
        const a = toAvailability(s, from, to);
        for (const o of a.occurrences) {
          events.push({
            id: `${a.id}:${o.occurrenceDate}`,
            kind: a.kind === 'available' ? ('availability' as const) : ('blocker' as const),
            startDate: o.startDate,
            endDate: o.endDate,
            title: (a.note ?? (a.kind === 'available' ? 'Verfügbar' : 'Blocker')).slice(0, 300),
            coachId: a.coachId,
            appointmentId: null,
            appointmentType: null,
            availabilityId: a.id,
            occurrenceDate: o.occurrenceDate,
            isProvisional: false,
          });
        }
      }
    }
    const all = [
      ...events,
      ...(query.excludeSpecial ? [] : holidayEvents(deps.config.HOLIDAY_STATE, from, to)),
    ];
    // By start; at the same start background first (holidays, availability), then appointments.
    const rank = { holiday: 0, availability: 1, blocker: 2, appointment: 3 } as const;
    all.sort(
      (a, b) =>
        (a.startDate < b.startDate ? -1 : a.startDate > b.startDate ? 1 : 0) ||
        rank[a.kind] - rank[b.kind] ||
        (a.id < b.id ? -1 : 1),
    );
    return {
      events: all,
      privateBusy: privateSide.privateBusy.filter((b) => Date.parse(b.endDate) > from),
      privateCalendars: privateSide.privateCalendars,
    };
  },
});
