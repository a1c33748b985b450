import { and, eq, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client';
import { appointments, clients, coaches } from '../../db/schema/index';
import type { Principal } from '../../http/auth';
import { scopeFilter } from '../../access/policy';

const client = alias(clients, 'client');
const coach = alias(coaches, 'coach');

export function selectAppointments<E extends Record<string, SQL.Aliased | SQL>>(
  db: Db | Tx,
  extra: E = {} as E,
) {
  return db
    .select({
      appointment: appointments,
      clientFirstName: client.firstName,
      clientLastName: client.lastName,
      coachFirstName: coach.firstName,
      coachLastName: coach.lastName,
      ...extra,
    })
    .from(appointments)
    .innerJoin(client, eq(client.id, appointments.clientId))
    .innerJoin(coach, eq(coach.id, appointments.coachId));
}

type Joined = {
  /** The columns of an appointment that its record (toAppointment) shows. */
  appointment: Omit<typeof appointments.$inferSelect, 'videoRoom' | 'clientInsurer'>;
  clientFirstName: string;
  clientLastName: string;
  coachFirstName: string;
  coachLastName: string;
};

/** What staff and the client both see of an appointment (the client never the coach's code). */
export const appointmentBasics = (a: Joined['appointment']) => ({
  id: a.id,
  startDate: a.startDate,
  endDate: a.endDate,
  appointmentType: a.appointmentType,
  meetingType: a.meetingType,
  meetingCodeClient: a.meetingCodeClient,
  cancelledAt: a.cancelledAt,
  isProvisional: a.isProvisional,
  externalMeetingUrl: a.externalMeetingUrl,
  createdAt: a.createdAt,
  updatedAt: a.updatedAt,
});

export function toAppointment(row: Joined) {
  const a = row.appointment;
  return {
    ...appointmentBasics(a),
    meetingCodeCoach: a.meetingCodeCoach,
    client: { id: a.clientId, firstName: row.clientFirstName, lastName: row.clientLastName },
    coach: { id: a.coachId, firstName: row.coachFirstName, lastName: row.coachLastName },
    clientId: a.clientId,
    coachId: a.coachId,
    clientName: `${row.clientFirstName} ${row.clientLastName}`,
    provisionalUntil: a.provisionalUntil,
    noShow: a.noShow,
    appointmentNumber: a.appointmentNumber,
  };
}

/** The appointments the caller reaches (access policy: a coach the ones they hold). */
export const appointmentScope = (principal: Principal) => scopeFilter(principal, 'appointments');

/** The appointment, if in the principal's scope; `lock` holds its row for the transaction. */
export async function findAppointment(
  db: Db | Tx,
  principal: Principal,
  id: string,
  options: { lock?: boolean } = {},
) {
  const query = selectAppointments(db).where(
    and(eq(appointments.id, id), appointmentScope(principal)),
  );
  const [row] = await (options.lock ? query.for('update', { of: appointments }) : query);
  return row ? toAppointment(row) : null;
}
