import type { Tx } from '../../db/client';
import type { Principal } from '../../http/auth';
import { defineHandlers, type AppDeps } from '../../http/handler';
import { notFound } from '../../http/problem';
import {
  bookInitialAppointment,
  cancelInitialAppointment,
  clientIdOf,
  findClientAppointment,
  rescheduleInitialAppointment,
  toClientAppointment,
  type ChangeInitial,
} from './client-booking';
import { inTransaction } from '../../db/transaction';

type OwnContext = { params: { appointmentId: string }; principal: Principal; deps: AppDeps };

/**
 * A change the signed-in client makes to their own appointment, in one transaction: 404 without
 * a client record; the answer is the appointment as the client sees it afterwards.
 */
function changeOwnAppointment(
  { params, principal, deps }: OwnContext,
  change: (tx: Tx, own: ChangeInitial) => Promise<void>,
) {
  return inTransaction(deps.db, async (tx) => {
    const clientId = await clientIdOf(tx, principal).catch(() => null);
    if (!clientId) throw notFound('appointment');
    await change(tx, { clientId, actor: principal, appointmentId: params.appointmentId });
    return toClientAppointment(
      (await findClientAppointment(tx, clientId, params.appointmentId))!,
      deps.config,
    );
  });
}

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
      return toClientAppointment((await findClientAppointment(tx, clientId, id))!, deps.config);
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
    return toClientAppointment(found, deps.config);
  },

  cancelInitialAppointment: (ctx) =>
    changeOwnAppointment(ctx, (tx, own) => cancelInitialAppointment(tx, ctx.deps, own)),

  rescheduleInitialAppointment: (ctx) =>
    changeOwnAppointment(ctx, (tx, own) =>
      rescheduleInitialAppointment(tx, ctx.deps, {
        ...own,
        startDate: ctx.body.startDate,
        coachId: ctx.body.coachId,
      }),
    ),
});
