import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { TASK_STATUSES } from '../../../shared/contract/enums';
import { appointments, clients, createdAt, inList, ts, updatedAt, users } from './core';

// The spec's task status.
// At most one patient card per appointment that is not canceled.
export const patientCards = pgTable(
  'patient_cards',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: uuid('client_id')
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    appointmentId: uuid('appointment_id')
      .notNull()
      .references(() => appointments.id, { onDelete: 'cascade' }),
    status: text('status', { enum: TASK_STATUSES }).notNull().default('new'),
    anamnesis: text('anamnesis'),
    diagnosis: text('diagnosis'),
    medication: text('medication'),
    goals: text('goals'),
    recommendations: text('recommendations'),
    notes: text('notes'),
    sentAt: ts('sent_at'),
    completedAt: ts('completed_at'),
    canceledAt: ts('canceled_at'),
    createdById: uuid('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('patient_cards_live_appointment_key')
      .on(t.appointmentId)
      .where(sql`${t.status} <> 'canceled'`),
    index('patient_cards_client_idx').on(t.clientId, t.createdAt.desc()),
    index('patient_cards_status_idx').on(t.status, t.createdAt),
    check('patient_cards_status_check', sql`${t.status} IN ${inList(TASK_STATUSES)}`),
    check(
      'patient_cards_sent_check',
      sql`${t.status} NOT IN ('sent', 'completed') OR ${t.sentAt} IS NOT NULL`,
    ),
    check(
      'patient_cards_completed_check',
      sql`${t.status} <> 'completed' OR ${t.completedAt} IS NOT NULL`,
    ),
    check(
      'patient_cards_canceled_check',
      sql`${t.status} <> 'canceled' OR ${t.canceledAt} IS NOT NULL`,
    ),
  ],
);
