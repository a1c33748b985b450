import { Temporal } from '@js-temporal/polyfill';
import {
  appointmentPhase,
  mayMarkNoShow,
  type TimedAppointment,
} from '../../../shared/appointment-phase';
import { startOfDay } from '../../../shared/time';
import { instantOf, isoOf, minutesBetween } from '../../time';
import { and, asc, eq, gte, isNull, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { appointments, clients, coaches } from '../../db/schema/index';
import { rowsOf } from '../../db/raw-rows';
import type { Principal } from '../../http/auth';
import { reachesCoach } from '../../access/policy';
import { defineHandlers, type AppDeps } from '../../http/handler';
import { badRequest, conflict, forbidden, notFound } from '../../http/problem';
import { changedFields, recordEvent } from '../events/index';
import { assertClientInScope } from '../clients/index';
import { enqueueAppointmentNotifications } from '../notifications/index';
import { appointmentData, emitWebhook } from '../webhooks/index';
import { bookRange, insertAppointment } from './booking';
import { listAppointmentPage } from './list';
import { assertHolidayBooking, assertInAvailability, assertMoveRequest, isMove } from './move';
import { appointmentOutcome } from './outcomes';
import { inTransaction } from '../../db/transaction';
import { appointmentScope, findAppointment, selectAppointments, toAppointment } from './repository';

const MAX_DURATION_MINUTES = 12 * 60;
const UPCOMING_LIMIT = 10;

function assertRange(start: string, end: string) {
  const minutes = minutesBetween(start, end);
  if (!(minutes > 0))
    throw badRequest('endDate', 'end_before_start', 'The end must be after the start');
  if (minutes > MAX_DURATION_MINUTES) {
    throw badRequest('endDate', 'value_too_large', 'An appointment lasts at most 12 hours');
  }
}

/**
 * A provisional appointment holds its slot for the configured time from when it is made
 * (or marked) provisional; releasing expired holds is the scheduler's job.
 */
function provisionalUntil(deps: AppDeps, isProvisional: boolean): string | null {
  if (!isProvisional) return null;
  return isoOf(instantOf(deps.now()).add({ minutes: deps.config.PROVISIONAL_HOLD_MINUTES }));
}

const phaseOf = (deps: AppDeps, a: TimedAppointment) => appointmentPhase(a, deps.now().getTime());

/** A coach books and moves only their own appointments. */
function assertOwnCoach(principal: Principal, coachId: string) {
  if (!reachesCoach(principal, coachId)) {
    throw forbidden('forbidden_scope', 'Coaches manage only their own appointments');
  }
}

/** 400 for an unknown client, an unknown or inactive coach; one statement. */
async function assertParties(tx: Tx, clientId: string | undefined, coachId: string | undefined) {
  const [row] = rowsOf<{ client: boolean; coach: boolean | null }>(
    await tx.execute(sql`
      SELECT EXISTS (SELECT 1 FROM ${clients} WHERE ${clients.id} = ${clientId ?? null}) AS client,
             (SELECT ${coaches.active} FROM ${coaches} WHERE ${coaches.id} = ${coachId ?? null}) AS coach`),
  );
  if (clientId && !row?.client) {
    throw badRequest('clientId', 'unknown_client', 'No client with this id');
  }
  if (coachId) {
    if (row?.coach == null) throw badRequest('coachId', 'unknown_coach', 'No coach with this id');
    if (!row.coach) throw badRequest('coachId', 'coach_inactive', 'The coach is not active');
  }
}

export const appointmentsHandlers = defineHandlers({
  async createAppointment({ body: request, principal, deps, reply }) {
    const { availabilityOverrideReason, ...body } = request;
    assertRange(body.startDate, body.endDate);
    assertOwnCoach(principal, body.coachId);
    assertMoveRequest(deps, null, availabilityOverrideReason);
    const override = assertHolidayBooking(deps, deps.config.HOLIDAY_STATE, {
      ...body,
      overrideReason: availabilityOverrideReason,
    });
    const created = await inTransaction(deps.db, async (tx) => {
      // The parties are checked after the overlap read, as before: under a rush for one
      // slot, the losers leave after that single read.
      const checkParties = async () => {
        await assertParties(tx, body.clientId, body.coachId);
        // Booking for a client mails them and shows their contact details: coaches book
        // only the clients they coach.
        await assertClientInScope(tx, principal, body.clientId);
      };
      const { id } = await insertAppointment(
        tx,
        {
          clientId: body.clientId,
          coachId: body.coachId,
          startDate: body.startDate,
          endDate: body.endDate,
          appointmentType: body.appointmentType,
          meetingType: body.meetingType ?? 'jitsi',
          isProvisional: body.isProvisional ?? false,
          provisionalUntil: provisionalUntil(deps, body.isProvisional ?? false),
          externalMeetingUrl: body.externalMeetingUrl ?? null,
        },
        checkParties,
      );
      await recordEvent(tx, {
        type: 'appointment.created',
        entityType: 'appointment',
        entityId: id,
        appointmentId: id,
        clientId: body.clientId,
        coachId: body.coachId,
        actor: principal,
        changes: {
          startDate: body.startDate,
          endDate: body.endDate,
          appointmentType: body.appointmentType,
          ...(override ? { availabilityOverride: override } : {}),
        },
      });
      await enqueueAppointmentNotifications(tx, deps, { appointmentId: id, change: 'booked' });
      await emitWebhook(tx, deps.jobs, 'appointment.created', appointmentData({ id, ...body }));
      return (await findAppointment(tx, principal, id))!;
    });
    reply.code(201);
    return created;
  },

  async getAppointment({ params, principal, deps }) {
    const appointment = await findAppointment(deps.db, principal, params.id);
    if (!appointment) throw notFound('appointment');
    return appointment;
  },

  async updateAppointment({ params, body, principal, deps }) {
    const { availabilityOverrideReason, ...changes } = body;
    return inTransaction(deps.db, async (tx) => {
      // Locked first: a move takes the appointment's row before the calendar (./booking.ts).
      const before = await findAppointment(tx, principal, params.id, { lock: true });
      if (!before) throw notFound('appointment');
      if (before.cancelledAt) {
        throw conflict('appointment_cancelled', 'A cancelled appointment cannot be changed');
      }
      if (changes.noShow === true && !before.noShow && !mayMarkNoShow(phaseOf(deps, before))) {
        throw conflict(
          'appointment_not_started',
          'A no-show is marked once the appointment has started',
        );
      }
      const coachId = changes.coachId ?? before.coachId;
      assertOwnCoach(principal, coachId);
      await assertParties(tx, undefined, changes.coachId);
      const placed = {
        appointmentId: before.id,
        coachId,
        startDate: changes.startDate ?? before.startDate,
        endDate: changes.endDate ?? before.endDate,
        overrideReason: availabilityOverrideReason,
      };
      assertRange(placed.startDate, placed.endDate);
      const move = isMove(before, placed) ? placed : null;
      assertMoveRequest(deps, move, availabilityOverrideReason);
      const update = () =>
        tx
          .update(appointments)
          .set({
            ...changes,
            // Saying isProvisional: true (re)starts the hold; false ends it.
            ...(changes.isProvisional === undefined
              ? {}
              : { provisionalUntil: provisionalUntil(deps, changes.isProvisional) }),
            updatedAt: sql`now()`,
          })
          .where(eq(appointments.id, before.id));
      // A move books its new range like a booking does; other changes leave the calendar alone.
      const override = move
        ? await bookRange(
            tx,
            { ...move, coachIds: [move.coachId], except: move.appointmentId },
            async () => {
              const reason = await assertInAvailability(tx, move, deps.config.HOLIDAY_STATE);
              await update();
              return reason;
            },
          )
        : (await update(), null);
      await recordEvent(tx, {
        type: 'appointment.updated',
        entityType: 'appointment',
        entityId: before.id,
        appointmentId: before.id,
        clientId: before.clientId,
        coachId,
        actor: principal,
        changes: {
          ...changedFields(before, changes),
          ...(override ? { availabilityOverride: override } : {}),
        },
      });
      const after = (await findAppointment(tx, principal, before.id))!;
      // A confirmed hold is a booking; a moved appointment (time or coach) a reschedule.
      const change =
        before.isProvisional && !after.isProvisional ? 'booked' : move ? 'rescheduled' : null;
      if (change) {
        await enqueueAppointmentNotifications(tx, deps, {
          appointmentId: before.id,
          change,
          previous: { start: before.startDate, end: before.endDate, coachId: before.coachId },
        });
      }
      if (move) await emitWebhook(tx, deps.jobs, 'appointment.rescheduled', appointmentData(after));
      if (changes.noShow === true && !before.noShow) {
        await emitWebhook(tx, deps.jobs, 'appointment.no_show', appointmentData(after));
      }
      if (changes.noShow !== undefined && changes.noShow !== before.noShow) {
        await deps.events.announce(tx, appointmentOutcome, {
          appointmentId: before.id,
          change: changes.noShow ? 'no_show' : 'no_show_undone',
          at: deps.now(),
        });
      }
      return after;
    });
  },

  async deleteAppointment({ params, principal, deps }) {
    return inTransaction(deps.db, async (tx) => {
      const before = await findAppointment(tx, principal, params.id);
      if (!before) throw notFound('appointment');
      if (phaseOf(deps, before) === 'ended') {
        throw conflict('appointment_ended', 'An appointment that has ended cannot be cancelled');
      }
      const [row] = await tx
        .update(appointments)
        .set({ cancelledAt: sql`now()`, updatedAt: sql`now()` })
        .where(and(eq(appointments.id, before.id), isNull(appointments.cancelledAt)))
        .returning({ id: appointments.id });
      if (!row) throw conflict('appointment_cancelled', 'The appointment is cancelled already');
      await recordEvent(tx, {
        type: 'appointment.cancelled',
        entityType: 'appointment',
        entityId: before.id,
        appointmentId: before.id,
        clientId: before.clientId,
        coachId: before.coachId,
        actor: principal,
      });
      await enqueueAppointmentNotifications(tx, deps, {
        appointmentId: before.id,
        change: 'cancelled',
      });
      await emitWebhook(tx, deps.jobs, 'appointment.cancelled', appointmentData(before));
      await deps.events.announce(tx, appointmentOutcome, {
        appointmentId: before.id,
        change: 'cancelled',
        at: deps.now(),
      });
      return (await findAppointment(tx, principal, before.id))!;
    });
  },

  listAppointments: ({ query, principal, deps }) => listAppointmentPage(deps.db, principal, query),

  async listUpcomingAppointments({ query, principal, deps }) {
    const dayStart = startOfDay(Temporal.PlainDate.from(query.forDate)).toString();
    // Listed while its video room can still be entered (shared/meeting-window.ts: until the end
    // plus MEETING_JOIN_LATE_MINUTES, both ends included), so the coach's meeting page offers
    // the join button for as long as the server opens the room.
    const roomOpenFor = { minutes: deps.config.MEETING_JOIN_LATE_MINUTES };
    const endedSince = isoOf(instantOf(deps.now()).subtract(roomOpenFor));
    const rows = await selectAppointments(deps.db)
      .where(
        and(
          appointmentScope(principal),
          isNull(appointments.cancelledAt),
          gte(appointments.startDate, dayStart),
          gte(appointments.endDate, endedSince),
          query.coachId ? eq(appointments.coachId, query.coachId) : undefined,
          query.clientId ? eq(appointments.clientId, query.clientId) : undefined,
        ),
      )
      .orderBy(asc(appointments.startDate), asc(appointments.id))
      .limit(UPCOMING_LIMIT);
    return { appointments: rows.map(toAppointment) };
  },
});
