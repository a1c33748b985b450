import { eq } from 'drizzle-orm';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import type { Queryable } from '../../db/client';
import { appointmentCalendarSequences, appointments, clients } from '../../db/schema/index';

/**
 * Appointments read to become calendar events (the coach's feed, the events written into
 * connected calendars): `fields` of the appointment and its client, and the SEQUENCE of the
 * invitations sent for it (null before the first), which the event carries so that calendar
 * apps take it for the invitation's copy instead of a second event.
 */
export const selectAppointmentEvents = <TFields extends SelectedFields>(
  db: Queryable,
  fields: TFields,
) =>
  db
    .select({ ...fields, sequence: appointmentCalendarSequences.sequence })
    .from(appointments)
    .innerJoin(clients, eq(clients.id, appointments.clientId))
    .leftJoin(
      appointmentCalendarSequences,
      eq(appointmentCalendarSequences.appointmentId, appointments.id),
    );
