import { and, asc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { appointments, clients } from '../../db/schema/index';
import type { components } from '../../../shared/contract/product';

/**
 * The appointments not cancelled that overlap `[fromIso, toIso)`, with their client's name,
 * in time order: what a calendar draws as booked. Optionally one coach's or one type's only.
 */
export function bookedAppointments(
  db: Db,
  window: { fromIso: string; toIso: string },
  only: {
    coachId?: string | null;
    appointmentType?: components['schemas']['AppointmentType'];
  } = {},
) {
  const { fromIso, toIso } = window;
  return db
    .select({
      id: appointments.id,
      startDate: appointments.startDate,
      endDate: appointments.endDate,
      coachId: appointments.coachId,
      appointmentType: appointments.appointmentType,
      isProvisional: appointments.isProvisional,
      firstName: clients.firstName,
      lastName: clients.lastName,
    })
    .from(appointments)
    .innerJoin(clients, eq(clients.id, appointments.clientId))
    .where(
      and(
        only.appointmentType ? eq(appointments.appointmentType, only.appointmentType) : undefined,
        isNull(appointments.cancelledAt),
        only.coachId ? eq(appointments.coachId, only.coachId) : undefined,
        // Appointments last at most 12 hours: the start bounds the index scan.
        gt(appointments.startDate, sql`${fromIso}::timestamptz - interval '12 hours'`),
        lt(appointments.startDate, toIso),
        gt(appointments.endDate, fromIso),
      ),
    )
    .orderBy(asc(appointments.startDate), asc(appointments.id));
}
