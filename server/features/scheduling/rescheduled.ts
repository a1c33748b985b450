import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { appointments, clients } from '../../db/schema/index';
import type { Principal } from '../../http/auth';

/**
 * The signed-in client's own initial appointment that a reschedule would move, or null
 * (another client's, an account without a client record, an unknown id: the caller answers
 * 404). Read here instead of asked of the appointments feature, which asks scheduling for
 * free coaches: otherwise the two features would import each other.
 */
export async function rescheduledAppointment(db: Db, principal: Principal, id: string) {
  const userId = principal.user?.id;
  if (!userId) return null;
  const [row] = await db
    .select({
      id: appointments.id,
      coachId: appointments.coachId,
      startDate: appointments.startDate,
      endDate: appointments.endDate,
    })
    .from(appointments)
    .innerJoin(clients, eq(clients.id, appointments.clientId))
    .where(
      and(
        eq(appointments.id, id),
        eq(clients.userId, userId),
        eq(appointments.appointmentType, 'initial'),
      ),
    );
  return row ?? null;
}
