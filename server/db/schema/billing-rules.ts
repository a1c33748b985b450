import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { APPOINTMENT_TYPES } from '../../../shared/contract/enums';
import { createdAt, inList, updatedAt } from './core';

// Evaluated by position (0-based); the first active rule whose non-null criteria all match
// sets amount and description. No unique index on position, so a reorder can rewrite all
// positions in one transaction without a deferred constraint.
export const billingRules = pgTable(
  'billing_rules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    position: integer('position').notNull(),
    appointmentType: text('appointment_type', { enum: APPOINTMENT_TYPES }),
    insurer: text('insurer'),
    campaign: text('campaign'),
    amountCents: integer('amount_cents').notNull(),
    description: text('description').notNull(),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('billing_rules_position_idx').on(t.position),
    index('billing_rules_active_position_idx').on(t.active, t.position),
    check('billing_rules_position_check', sql`${t.position} >= 0`),
    check('billing_rules_amount_check', sql`${t.amountCents} BETWEEN 0 AND 100000000`),
    check(
      'billing_rules_type_check',
      sql`${t.appointmentType} IS NULL OR ${t.appointmentType} IN ${inList(APPOINTMENT_TYPES)}`,
    ),
  ],
);
