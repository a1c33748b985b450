import { sql } from 'drizzle-orm';
import { check, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns';
import { users } from './core';

/**
 * The practice's own details: one row, edited by a SUPERADMIN on
 * /admin/practice. The imprint and privacy pages, the invoices (PDF and XRechnung seller) and
 * the signature and sender name of e-mails all read it. Until the first save there is no row
 * and the PRACTICE_* settings of the server are the defaults (server/features/practice).
 */
export const practiceSettings = pgTable(
  'practice_settings',
  {
    /** Always 1: there is one practice per installation. */
    id: integer('id').primaryKey().default(1),
    name: text('name').notNull(),
    street: text('street').notNull(),
    postalCode: text('postal_code').notNull(),
    city: text('city').notNull(),
    email: text('email').notNull(),
    phone: text('phone').notNull(),
    /** Vertretungsberechtigte Person(en) (§ 5 Abs. 1 Nr. 1 DDG). */
    managingPerson: text('managing_person'),
    registerCourt: text('register_court'),
    registerNumber: text('register_number'),
    vatId: text('vat_id'),
    taxNumber: text('tax_number'),
    iban: text('iban').notNull(),
    dpoName: text('dpo_name'),
    dpoEmail: text('dpo_email'),
    /** Name and address of the competent data protection supervisory authority. */
    supervisoryAuthority: text('supervisory_authority'),
    updatedById: uuid('updated_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('practice_settings_single_row', sql`${t.id} = 1`),
    check('practice_settings_tax_id', sql`${t.vatId} IS NOT NULL OR ${t.taxNumber} IS NOT NULL`),
  ],
);
