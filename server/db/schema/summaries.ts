import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { SUMMARY_STATUSES } from '../../../shared/contract/enums';
import { appointments, createdAt, inList, ts, updatedAt, users } from './core';

// One summary per appointment (Terminzusammenfassung).
export const appointmentSummaries = pgTable(
  'appointment_summaries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    appointmentId: uuid('appointment_id')
      .notNull()
      .references(() => appointments.id, { onDelete: 'cascade' }),
    status: text('status', { enum: SUMMARY_STATUSES }).notNull().default('draft'),
    topics: text('topics'),
    goals: text('goals'),
    agreements: text('agreements'),
    nextSteps: text('next_steps'),
    notes: text('notes'),
    completedAt: ts('completed_at'),
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('appointment_summaries_appointment_key').on(t.appointmentId),
    index('appointment_summaries_status_idx').on(t.status, t.updatedAt),
    check('appointment_summaries_status_check', sql`${t.status} IN ${inList(SUMMARY_STATUSES)}`),
    check(
      'appointment_summaries_completed_check',
      sql`(${t.status} = 'completed') = (${t.completedAt} IS NOT NULL)`,
    ),
  ],
);
