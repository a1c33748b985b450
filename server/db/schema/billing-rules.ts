import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import {
  APPOINTMENT_TYPES,
  BILLING_PAYER_KINDS,
  BILLING_VAT_TREATMENTS,
  CLIENT_TYPES,
} from '../../../shared/contract/enums';
import { createdAt, inList, updatedAt, uuidId } from './columns';

// Evaluated by position (0-based); the first active rule whose non-null criteria all match
// sets amount, description, VAT and payer. No unique index on position, so a reorder can
// rewrite all positions in one transaction without a deferred constraint. `version` grows by
// one on every update; items copy it with what they applied, so an edit changes no item.
export const billingRules = pgTable(
  'billing_rules',
  {
    id: uuidId(),
    name: text('name').notNull(),
    position: integer('position').notNull(),
    version: integer('version').notNull().default(1),
    appointmentType: text('appointment_type', { enum: APPOINTMENT_TYPES }),
    insurer: text('insurer'),
    campaign: text('campaign'),
    clientType: text('client_type', { enum: CLIENT_TYPES }),
    sponsorPays: boolean('sponsor_pays'),
    noShow: boolean('no_show'),
    cancelledLate: boolean('cancelled_late'),
    validFrom: date('valid_from', { mode: 'string' }),
    validTo: date('valid_to', { mode: 'string' }),
    amountCents: integer('amount_cents').notNull(),
    description: text('description').notNull(),
    vatTreatment: text('vat_treatment', { enum: BILLING_VAT_TREATMENTS })
      .notNull()
      .default('standard'),
    vatExemptionReason: text('vat_exemption_reason'),
    payerKind: text('payer_kind', { enum: BILLING_PAYER_KINDS }).notNull().default('client'),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('billing_rules_position_idx').on(t.position),
    index('billing_rules_active_position_idx').on(t.active, t.position),
    check('billing_rules_position_check', sql`${t.position} >= 0`),
    check('billing_rules_version_check', sql`${t.version} >= 1`),
    check('billing_rules_amount_check', sql`${t.amountCents} BETWEEN 0 AND 100000000`),
    check(
      'billing_rules_type_check',
      sql`${t.appointmentType} IS NULL OR ${t.appointmentType} IN ${inList(APPOINTMENT_TYPES)}`,
    ),
    check(
      'billing_rules_client_type_check',
      sql`${t.clientType} IS NULL OR ${t.clientType} IN ${inList(CLIENT_TYPES)}`,
    ),
    check('billing_rules_payer_check', sql`${t.payerKind} IN ${inList(BILLING_PAYER_KINDS)}`),
    // Exempt needs its legal reason, and only exempt carries one.
    check(
      'billing_rules_vat_check',
      sql`(${t.vatTreatment} = 'standard' AND ${t.vatExemptionReason} IS NULL)
        OR (${t.vatTreatment} = 'exempt' AND ${t.vatExemptionReason} IS NOT NULL)`,
    ),
    check(
      'billing_rules_valid_range_check',
      sql`${t.validFrom} IS NULL OR ${t.validTo} IS NULL OR ${t.validFrom} <= ${t.validTo}`,
    ),
  ],
);
