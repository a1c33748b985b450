import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { clients } from '../../db/schema/index';
import { conflict, notFound } from '../../http/problem';
import { appointmentFacts, itemFor } from './items';
import { orderedRules } from './rules';

/**
 * Which rule would bill the appointment and why the rules above it do not, as the item job
 * would decide it, treating an appointment that is not over yet as over. Writes nothing.
 */
export async function previewRules(
  db: Db,
  appointmentId: string,
  now: Date,
  changeNoticeHours: number,
) {
  const facts = await appointmentFacts(db, appointmentId);
  if (!facts) throw notFound('appointment');
  const end = new Date(facts.endDate);
  const rules = await orderedRules(db);
  const item = itemFor(facts, rules, { now: end > now ? end : now, changeNoticeHours });
  if (!item) {
    throw conflict(
      'appointment_not_billable',
      'The appointment was cancelled in good time or is an unconfirmed hold; it gets no item',
    );
  }
  // The preview names the appointment as people know it: the client, the start and the type.
  const [client] = await db
    .select({ id: clients.id, firstName: clients.firstName, lastName: clients.lastName })
    .from(clients)
    .where(eq(clients.id, facts.clientId));
  const v = item.values;
  return {
    appointmentId,
    appointment: {
      startDate: facts.startDate,
      appointmentType: facts.appointmentType,
      client: client!,
    },
    item: {
      amountCents: v.amountCents,
      description: v.description,
      vatTreatment: v.vatTreatment,
      vatRatePercent: v.vatRatePercent,
      payerKind: v.payerKind,
    },
    occasion: item.values.occasion,
    matchedRuleId: item.evaluation.match?.id ?? null,
    rules: item.evaluation.trail.map((step) => ({
      ruleId: step.rule.id,
      name: step.rule.name,
      position: step.rule.position,
      outcome: step.outcome,
      failedCriteria: step.failedCriteria,
    })),
    validationErrors: item.values.validationErrors,
  };
}
