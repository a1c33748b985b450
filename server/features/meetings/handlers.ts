import { and, desc, eq, isNull, lt, ne, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { appointments, clients, coaches, events } from '../../db/schema/index';
import type { Principal } from '../../http/auth';
import { defineHandlers, type AppDeps } from '../../http/handler';
import { conflict, notFound } from '../../http/problem';
import {
  appointmentScope,
  cancelForClient,
  lockChangeable,
  selectAppointments,
  toAppointment,
} from '../appointments/index';
import { selectClients, toClient } from '../clients/index';
import { withoutClinical } from '../../../shared/clinical-access';
import type { MeetingRole } from '../../adapters/video/video';
import { compareInstants, instantOf, isoOf } from '../../time';
import {
  clientDisplayName,
  joiningWindow,
  normaliseMeetingCode,
  personName,
  videoAdaptersOf,
} from './meetings';
import { inTransaction } from '../../db/transaction';

const EARLIER_LIMIT = 10;
const FINISHED_EVENT = 'meeting.finished';

type AppointmentRow = typeof appointments.$inferSelect;

/** Every look-up by meeting code counts against the caller's address (guessing codes). */
const countLookup = (deps: AppDeps, ip: string) => deps.rateLimits.meetingCodeLookup.consume(ip);

/** The coach's title beside the names that selectAppointments reads. */
const withCoachTitle = {
  coachTitle: sql<
    string | null
  >`(SELECT ${coaches.title} FROM ${coaches} WHERE ${coaches.id} = ${appointments.coachId})`,
};

/** The appointment of a client meeting code, with the coach's name; null when unknown. */
async function byClientCode(db: Db | Tx, typed: string) {
  const [row] = await selectAppointments(db, withCoachTitle).where(
    eq(appointments.meetingCodeClient, normaliseMeetingCode(typed)),
  );
  return row ?? null;
}

/** The appointment of a coach meeting code within the caller's reach (coaches: their own). */
async function byCoachCode(db: Db | Tx, principal: Principal, typed: string) {
  const [row] = await selectAppointments(db, withCoachTitle).where(
    and(
      eq(appointments.meetingCodeCoach, normaliseMeetingCode(typed)),
      appointmentScope(principal),
    ),
  );
  return row ?? null;
}

async function finishedAtOf(db: Db | Tx, appointmentId: string): Promise<string | null> {
  const [row] = await db
    .select({ occurredAt: events.occurredAt })
    .from(events)
    .where(and(eq(events.appointmentId, appointmentId), eq(events.type, FINISHED_EVENT)))
    .orderBy(events.occurredAt)
    .limit(1);
  return row?.occurredAt ?? null;
}

/** 409 unless the room of this appointment may be entered now. */
function assertOpen(deps: AppDeps, a: AppointmentRow) {
  if (a.cancelledAt) throw conflict('appointment_cancelled', 'The appointment is cancelled');
  if (a.meetingType !== 'jitsi') {
    throw conflict('meeting_not_video', 'This meeting is held through an external link');
  }
  const window = joiningWindow(deps.config, a);
  const now = instantOf(deps.now());
  if (compareInstants(now, window.from) < 0 || compareInstants(now, window.until) > 0) {
    throw conflict('meeting_not_open', 'The meeting room is not open at this time');
  }
  return window;
}

async function roomToken(deps: AppDeps, a: AppointmentRow, role: MeetingRole, displayName: string) {
  const window = assertOpen(deps, a);
  const access = await videoAdaptersOf(deps.config)[a.meetingType].access({
    appointment: a,
    role,
    displayName,
    window,
    now: deps.now(),
  });
  if (access.kind !== 'room') {
    throw conflict('meeting_not_video', 'This meeting is held through an external link');
  }
  return {
    domain: access.domain,
    scriptUrl: access.scriptUrl,
    roomName: access.roomName,
    jwt: access.jwt,
    displayName,
    startDate: a.startDate,
    endDate: a.endDate,
    moderator: access.moderator,
  };
}

/** The external link one side opens (xodosign, arztkonsultation); null for Jitsi rooms. */
async function externalLink(deps: AppDeps, a: AppointmentRow, role: MeetingRole, name: string) {
  if (a.meetingType === 'jitsi') return null;
  const access = await videoAdaptersOf(deps.config)[a.meetingType].access({
    appointment: a,
    role,
    displayName: name,
    window: joiningWindow(deps.config, a),
    now: deps.now(),
  });
  return access.kind === 'external' ? access.url : null;
}

async function meetingInfo(
  deps: AppDeps,
  row: NonNullable<Awaited<ReturnType<typeof byClientCode>>>,
) {
  const a = row.appointment;
  const window = joiningWindow(deps.config, a);
  return {
    appointmentId: a.id,
    startDate: a.startDate,
    endDate: a.endDate,
    appointmentType: a.appointmentType,
    meetingType: a.meetingType,
    coachName: personName({
      title: row.coachTitle,
      firstName: row.coachFirstName,
      lastName: row.coachLastName,
    }),
    cancelled: a.cancelledAt !== null,
    externalMeetingUrl: await externalLink(
      deps,
      a,
      'client',
      clientDisplayName(row.clientFirstName, row.clientLastName),
    ),
    joinableFrom: isoOf(window.from),
    joinableUntil: isoOf(window.until),
  };
}

export const meetingsHandlers = defineHandlers({
  async getMeetingByClientCode({ params, deps, request }) {
    await countLookup(deps, request.ip);
    const row = await byClientCode(deps.db, params.clientMeetingCode);
    if (!row) throw notFound('meeting');
    return meetingInfo(deps, row);
  },

  async cancelMeetingByClientCode({ params, principal, deps, request }) {
    await countLookup(deps, request.ip);
    return inTransaction(deps.db, async (tx) => {
      const row = await lockChangeable(tx, deps, 'meeting', () =>
        byClientCode(tx, params.clientMeetingCode),
      );
      const a = row.appointment;
      const cancelledAt = await cancelForClient(tx, deps, a, principal, 'meeting_code');
      return meetingInfo(deps, { ...row, appointment: { ...a, cancelledAt } });
    });
  },

  async getMeetingByCoachCode({ params, principal, deps, request }) {
    await countLookup(deps, request.ip);
    const row = await byCoachCode(deps.db, principal, params.coachMeetingCode);
    if (!row) throw notFound('meeting');
    const a = row.appointment;
    const [clientRow] = await selectClients(deps.db).where(eq(clients.id, a.clientId));
    const earlier = await selectAppointments(deps.db)
      .where(
        and(
          eq(appointments.clientId, a.clientId),
          ne(appointments.id, a.id),
          isNull(appointments.cancelledAt),
          lt(appointments.startDate, a.startDate),
        ),
      )
      .orderBy(desc(appointments.startDate), desc(appointments.id))
      .limit(EARLIER_LIMIT);
    const window = joiningWindow(deps.config, a);
    const coachName = personName({
      title: row.coachTitle,
      firstName: row.coachFirstName,
      lastName: row.coachLastName,
    });
    return {
      appointment: toAppointment(row),
      client: withoutClinical(principal.role, toClient(clientRow!)),
      earlierAppointments: earlier.map(toAppointment),
      joinableFrom: isoOf(window.from),
      joinableUntil: isoOf(window.until),
      externalJoinUrl: await externalLink(deps, a, 'coach', coachName),
      finishedAt: await finishedAtOf(deps.db, a.id),
    };
  },

  async getClientMeetingToken({ params, deps, request }) {
    await countLookup(deps, request.ip);
    const row = await byClientCode(deps.db, params.clientMeetingCode);
    if (!row) throw notFound('meeting');
    return roomToken(
      deps,
      row.appointment,
      'client',
      clientDisplayName(row.clientFirstName, row.clientLastName),
    );
  },

  async getCoachMeetingToken({ params, principal, deps, request }) {
    await countLookup(deps, request.ip);
    const row = await byCoachCode(deps.db, principal, params.meetingCodeCoach);
    if (!row) throw notFound('meeting');
    return roomToken(
      deps,
      row.appointment,
      'coach',
      personName({
        title: row.coachTitle,
        firstName: row.coachFirstName,
        lastName: row.coachLastName,
      }),
    );
  },

  async recordCoachMeetingFinished({ params, principal, deps, request }) {
    await countLookup(deps, request.ip);
    return inTransaction(deps.db, async (tx) => {
      const found = await byCoachCode(tx, principal, params.coachMeetingCode);
      if (!found) throw notFound('meeting');
      const a = found.appointment;
      // One record per appointment, also when the page is reloaded or sent twice at once.
      await tx
        .select({ id: appointments.id })
        .from(appointments)
        .where(eq(appointments.id, a.id))
        .for('update');
      if (a.cancelledAt) throw conflict('appointment_cancelled', 'The appointment is cancelled');
      if (compareInstants(instantOf(deps.now()), joiningWindow(deps.config, a).from) < 0) {
        throw conflict('meeting_not_started', 'The meeting has not begun yet');
      }
      const earlier = await finishedAtOf(tx, a.id);
      if (earlier) return { appointmentId: a.id, finishedAt: earlier };
      const finishedAt = deps.now().toISOString();
      await tx.insert(events).values({
        type: FINISHED_EVENT,
        entityType: 'appointment',
        entityId: a.id,
        actorUserId: principal.user?.id ?? null,
        appointmentId: a.id,
        clientId: a.clientId,
        coachId: a.coachId,
        changes: { role: principal.role },
        source: 'business',
        important: false,
        occurredAt: finishedAt,
      });
      return { appointmentId: a.id, finishedAt };
    });
  },
});
