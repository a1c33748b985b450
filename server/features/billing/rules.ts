import { asc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { billingRules } from '../../db/schema/index';
import { badRequest, conflict, notFound } from '../../http/problem';
import type { Body } from '../../http/handler';

export type BillingRuleRow = typeof billingRules.$inferSelect;

/** The rate that goes with a VAT treatment: standard is 19 %, exempt 0. */
export const vatRateOf = (treatment: BillingRuleRow['vatTreatment']): 0 | 19 =>
  treatment === 'exempt' ? 0 : 19;

export function toBillingRule(row: BillingRuleRow) {
  return {
    id: row.id,
    name: row.name,
    position: row.position,
    version: row.version,
    appointmentType: row.appointmentType,
    insurer: row.insurer,
    campaign: row.campaign,
    clientType: row.clientType,
    sponsorPays: row.sponsorPays,
    noShow: row.noShow,
    cancelledLate: row.cancelledLate,
    validFrom: row.validFrom,
    validTo: row.validTo,
    amountCents: row.amountCents,
    description: row.description,
    vatTreatment: row.vatTreatment,
    vatRatePercent: vatRateOf(row.vatTreatment),
    vatExemptionReason: row.vatExemptionReason,
    payerKind: row.payerKind,
    active: row.active,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** Every rule in evaluation order (inactive ones included). */
export const orderedRules = (db: Db | Tx) =>
  db.select().from(billingRules).orderBy(asc(billingRules.position), asc(billingRules.id));

/** Rule writes that move positions (create, delete, reorder) take turns. */
export const lockRuleOrder = (tx: Tx) =>
  tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('billing_rules.order'))`);

type RuleInput = Body<'updateBillingRule'>;

/** The combined checks the contract cannot state: VAT reason with exempt only, a valid range. */
export function assertRuleConsistent(rule: {
  vatTreatment: BillingRuleRow['vatTreatment'];
  vatExemptionReason: string | null;
  validFrom: string | null;
  validTo: string | null;
}) {
  if (rule.vatTreatment === 'exempt' && !rule.vatExemptionReason?.trim()) {
    throw badRequest(
      'vatExemptionReason',
      'value_missing',
      'An exempt rule names its legal reason (e.g. § 4 Nr. 14 a UStG)',
    );
  }
  if (rule.vatTreatment === 'standard' && rule.vatExemptionReason !== null) {
    throw badRequest(
      'vatExemptionReason',
      'value_not_allowed',
      'Only an exempt rule carries an exemption reason',
    );
  }
  if (rule.validFrom && rule.validTo && rule.validFrom > rule.validTo) {
    throw badRequest('validTo', 'end_before_start', 'validTo must not be before validFrom');
  }
}

/** The columns an input sets (undefined: not named, left as is). */
export function ruleColumns<I extends RuleInput>(input: I) {
  const { vatExemptionReason, ...rest } = input;
  return {
    ...rest,
    ...(vatExemptionReason === undefined ? {} : { vatExemptionReason }),
  };
}

export async function createRule(tx: Tx, input: Body<'createBillingRule'>) {
  await lockRuleOrder(tx);
  const merged = {
    vatTreatment: input.vatTreatment ?? 'standard',
    vatExemptionReason: input.vatExemptionReason ?? null,
    validFrom: input.validFrom ?? null,
    validTo: input.validTo ?? null,
  } as const;
  assertRuleConsistent(merged);
  const [row] = await tx
    .insert(billingRules)
    .values({
      ...ruleColumns(input),
      ...merged,
      position: sql`(SELECT COALESCE(MAX(${billingRules.position}) + 1, 0) FROM ${billingRules})`,
    })
    .returning();
  return row!;
}

export async function updateRule(tx: Tx, id: string, input: RuleInput) {
  const [before] = await tx
    .select()
    .from(billingRules)
    .where(eq(billingRules.id, id))
    .for('update');
  if (!before) throw notFound('billing rule');
  const columns = ruleColumns(input);
  // Switching to standard drops a reason that is no longer allowed, unless one is sent.
  const vatExemptionReason =
    columns.vatExemptionReason !== undefined
      ? columns.vatExemptionReason
      : input.vatTreatment === 'standard'
        ? null
        : before.vatExemptionReason;
  const after = { ...before, ...columns, vatExemptionReason };
  assertRuleConsistent(after);
  const [row] = await tx
    .update(billingRules)
    .set({
      ...columns,
      vatExemptionReason,
      version: sql`${billingRules.version} + 1`,
      updatedAt: sql`now()`,
    })
    .where(eq(billingRules.id, id))
    .returning();
  return { before, after: row! };
}

export async function deleteRule(tx: Tx, id: string) {
  await lockRuleOrder(tx);
  const [row] = await tx.delete(billingRules).where(eq(billingRules.id, id)).returning();
  if (!row) throw notFound('billing rule');
  // Positions stay 0..n-1: the rules below move up by one.
  await tx
    .update(billingRules)
    .set({ position: sql`${billingRules.position} - 1` })
    .where(sql`${billingRules.position} > ${row.position}`);
  return row;
}

/** Sets the order; 409 unless `ids` is exactly today's set of rules. */
export async function reorderRules(tx: Tx, ids: string[]) {
  await lockRuleOrder(tx);
  const current = await tx.select({ id: billingRules.id }).from(billingRules);
  const known = new Set(current.map((r) => r.id));
  if (ids.length !== known.size || !ids.every((id) => known.has(id))) {
    throw conflict(
      'stale_rule_order',
      'The list does not name exactly the current billing rules; reload and try again',
    );
  }
  await tx.execute(sql`
    UPDATE ${billingRules} SET position = o.n - 1, updated_at = now()
    FROM unnest(${sql.param(ids)}::uuid[]) WITH ORDINALITY AS o(id, n)
    WHERE ${billingRules.id} = o.id AND ${billingRules.position} <> o.n - 1`);
  return orderedRules(tx);
}
