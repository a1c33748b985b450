import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { appointments, clients, communications } from '../../db/schema/index';
import type { Principal } from '../../http/auth';
import { scopeFilter } from '../../access/policy';
import { defineHandlers } from '../../http/handler';
import { pageWindow } from '../../http/paging';
import { badRequest, conflict, notFound } from '../../http/problem';
import { appointmentPhase, mayCancelOrInvite } from '../../../shared/appointment-phase';
import { recordEvent } from '../events/index';
import { enqueueInvitations } from './enqueue';
import { inTransaction } from '../../db/transaction';

async function visibleAppointment(db: Db, principal: Principal, id: string) {
  const [row] = await db
    .select({
      id: appointments.id,
      clientId: appointments.clientId,
      coachId: appointments.coachId,
      startDate: appointments.startDate,
      endDate: appointments.endDate,
      cancelledAt: appointments.cancelledAt,
      isProvisional: appointments.isProvisional,
    })
    .from(appointments)
    .where(and(eq(appointments.id, id), scopeFilter(principal, 'appointments')));
  return row ?? null;
}

async function visibleClient(db: Db, principal: Principal, id: string) {
  const [row] = await db
    .select({ id: clients.id })
    .from(clients)
    .where(and(eq(clients.id, id), scopeFilter(principal, 'clients')));
  return row ?? null;
}

const listColumns = {
  id: communications.id,
  channel: communications.channel,
  template: communications.template,
  recipient: communications.recipient,
  subject: communications.subject,
  status: communications.status,
  attempts: communications.attempts,
  sentAt: communications.sentAt,
  error: communications.error,
  appointmentId: communications.appointmentId,
  clientId: communications.clientId,
  createdAt: communications.createdAt,
};

const LIST_LIMIT = 500;

function listWhere(db: Db, where: SQL) {
  return db
    .select(listColumns)
    .from(communications)
    .where(where)
    .orderBy(desc(communications.createdAt), desc(communications.id))
    .limit(LIST_LIMIT);
}

/** A meeting link only ever points at the app itself or an origin the operator allowed. */
function assertMeetingBaseUrl(config: Config, value: string) {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw badRequest('meetingBaseUrl', 'invalid_url', 'Not a URL');
  }
  const allowed = [
    new URL(config.PUBLIC_URL).origin,
    ...config.MEETING_LINK_ORIGINS.map((o) => new URL(o).origin),
  ];
  if (!/^https?:$/.test(url.protocol) || !allowed.includes(url.origin)) {
    throw badRequest(
      'meetingBaseUrl',
      'meeting_base_url_not_allowed',
      `Meeting links may only point to ${allowed.join(', ')}`,
    );
  }
}

export const notificationsHandlers = defineHandlers({
  async resendAppointmentInvites({ params, body, principal, deps, reply }) {
    assertMeetingBaseUrl(deps.config, body.meetingBaseUrl);
    const appointment = await visibleAppointment(deps.db, principal, params.id);
    if (!appointment) throw notFound('appointment');
    if (appointment.cancelledAt) {
      throw conflict('appointment_cancelled', 'A cancelled appointment has no invitation');
    }
    if (!mayCancelOrInvite(appointmentPhase(appointment, deps.now().getTime()))) {
      throw conflict('appointment_ended', 'An appointment that has ended has no invitation');
    }
    if (appointment.isProvisional) {
      throw conflict(
        'appointment_provisional',
        'Invitations are sent when the provisional appointment is confirmed',
      );
    }
    await inTransaction(deps.db, async (tx) => {
      await enqueueInvitations(tx, deps, {
        appointmentId: appointment.id,
        meetingBaseUrl: body.meetingBaseUrl,
      });
      await recordEvent(tx, {
        type: 'appointment.invites_resent',
        entityType: 'appointment',
        entityId: appointment.id,
        appointmentId: appointment.id,
        clientId: appointment.clientId,
        coachId: appointment.coachId,
        actor: principal,
        important: false,
      });
    });
    reply.code(202);
    return { queued: true as const };
  },

  async listAppointmentCommunications({ params, principal, deps }) {
    const appointment = await visibleAppointment(deps.db, principal, params.appointmentId);
    if (!appointment) throw notFound('appointment');
    return {
      communications: await listWhere(deps.db, eq(communications.appointmentId, appointment.id)),
    };
  },

  async listClientCommunications({ params, principal, deps }) {
    const client = await visibleClient(deps.db, principal, params.clientId);
    if (!client) throw notFound('client');
    return { communications: await listWhere(deps.db, eq(communications.clientId, client.id)) };
  },

  /** Staff who follow up on delivery problems (the contract's roles; no coach scope needed). */
  async listFailedCommunications({ query, deps }) {
    const { limit, offset } = pageWindow(query.page, query.limit);
    const failed = eq(communications.status, 'failed');
    const [rows, [counted]] = await Promise.all([
      deps.db
        .select(listColumns)
        .from(communications)
        .where(failed)
        .orderBy(desc(communications.createdAt), desc(communications.id))
        .limit(limit)
        .offset(offset),
      deps.db.select({ n: count() }).from(communications).where(failed),
    ]);
    return { communications: rows, itemCount: counted?.n ?? 0 };
  },
});
