import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { appointments, clients, createdAt, inList, ts, updatedAt } from './core';

export const COMMUNICATION_CHANNELS = ['email', 'sms'] as const;
export const COMMUNICATION_STATUSES = ['queued', 'sent', 'failed'] as const;

// Every e-mail and SMS the product sends (also the captured ones in development, which the
// development mailbox page reads). Erasing a client erases their messages.
export const communications = pgTable(
  'communications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    channel: text('channel', { enum: COMMUNICATION_CHANNELS }).notNull(),
    template: text('template').notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject'),
    body: text('body').notNull().default(''),
    status: text('status', { enum: COMMUNICATION_STATUSES }).notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    providerMessageId: text('provider_message_id'),
    sentAt: ts('sent_at'),
    error: text('error'),
    appointmentId: uuid('appointment_id').references(() => appointments.id, {
      onDelete: 'set null',
    }),
    clientId: uuid('client_id').references(() => clients.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('communications_appointment_idx').on(t.appointmentId, t.createdAt.desc()),
    index('communications_client_idx').on(t.clientId, t.createdAt.desc()),
    index('communications_queued_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'queued'`),
    check('communications_channel_check', sql`${t.channel} IN ${inList(COMMUNICATION_CHANNELS)}`),
    check('communications_status_check', sql`${t.status} IN ${inList(COMMUNICATION_STATUSES)}`),
    check('communications_sent_check', sql`${t.status} <> 'sent' OR ${t.sentAt} IS NOT NULL`),
    check('communications_attempts_check', sql`${t.attempts} >= 0`),
  ],
);
