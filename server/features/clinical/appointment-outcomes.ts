import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { appointmentSummaries } from '../../db/schema/index';
import type { AppointmentOutcome } from '../appointments/index';

const summary = appointmentSummaries;

/**
 * A summary draft follows its appointment, in the same transaction: cancelled or marked a
 * no-show → the draft is `canceled` (with the cause); the no-show taken back → a draft
 * canceled for it is `new` again. Signed documents stay as they are. The version rises, so
 * an editor still open on the draft gets 412 and reads it again.
 */
export async function followAppointment(tx: Tx, outcome: AppointmentOutcome) {
  const bump = { version: sql`${summary.version} + 1`, updatedAt: sql`now()` };
  if (outcome.change === 'no_show_undone') {
    await tx
      .update(summary)
      .set({ ...bump, status: 'new', canceledAt: null, canceledWith: null })
      .where(
        and(
          eq(summary.appointmentId, outcome.appointmentId),
          eq(summary.status, 'canceled'),
          eq(summary.canceledWith, 'no_show'),
        ),
      );
    return;
  }
  await tx
    .update(summary)
    .set({
      ...bump,
      status: 'canceled',
      canceledAt: outcome.at.toISOString(),
      canceledWith: outcome.change === 'no_show' ? 'no_show' : 'appointment_cancelled',
    })
    .where(and(eq(summary.appointmentId, outcome.appointmentId), eq(summary.status, 'new')));
}
