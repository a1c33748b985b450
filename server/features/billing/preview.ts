import type { Db } from '../../db/client';
import { conflict, notFound } from '../../http/problem';
import { appointmentFacts, itemFor } from './items';
import { orderedRules } from './rules';

/**
 * Which rule would bill the appointment and why the rules above it do not, as the item job
 * would decide it, treating an appointment that is not over yet as over. Writes nothing.
 */
export async function previewRules(db: Db, appointmentId: string, now: Date, changeNoticeHours: number) {
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
  return {
    appointmentId,
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
