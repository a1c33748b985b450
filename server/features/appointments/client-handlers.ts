import { defineHandlers } from '../../http/handler';
import { notFound } from '../../http/problem';
import {
  bookInitialAppointment,
  cancelInitialAppointment,
  clientIdOf,
  findClientAppointment,
  rescheduleInitialAppointment,
  toClientAppointment,
} from './client-booking';
import { inTransaction } from './transaction';

export const clientAppointmentsHandlers = defineHandlers({
  async bookInitialAppointment({ body, principal, deps, reply }) {
    const booked = await inTransaction(deps.db, async (tx) => {
      const clientId = await clientIdOf(tx, principal);
      const id = await bookInitialAppointment(tx, deps, {
        clientId,
        actor: principal,
        startDate: body.startDate,
        durationMinutes: body.durationMinutes ?? 30,
        coachId: body.coachId,
      });
      return toClientAppointment((await findClientAppointment(tx, clientId, id))!);
    });
    reply.code(201);
    return booked;
  },

  async getInitialAppointment({ params, principal, deps }) {
    const clientId = await clientIdOf(deps.db, principal).catch(() => null);
    const found = clientId
      ? await findClientAppointment(deps.db, clientId, params.appointmentId)
      : null;
    if (!found) throw notFound('appointment');
    return toClientAppointment(found);
  },

  async cancelInitialAppointment({ params, principal, deps }) {
    return inTransaction(deps.db, async (tx) => {
      const clientId = await clientIdOf(tx, principal).catch(() => null);
      if (!clientId) throw notFound('appointment');
      await cancelInitialAppointment(tx, deps, {
        clientId,
        actor: principal,
        appointmentId: params.appointmentId,
      });
      return toClientAppointment(
        (await findClientAppointment(tx, clientId, params.appointmentId))!,
      );
    });
  },

  async rescheduleInitialAppointment({ params, body, principal, deps }) {
    return inTransaction(deps.db, async (tx) => {
      const clientId = await clientIdOf(tx, principal).catch(() => null);
      if (!clientId) throw notFound('appointment');
      await rescheduleInitialAppointment(tx, deps, {
        clientId,
        actor: principal,
        appointmentId: params.appointmentId,
        startDate: body.startDate,
        coachId: body.coachId,
      });
      return toClientAppointment(
        (await findClientAppointment(tx, clientId, params.appointmentId))!,
      );
    });
  },
});
