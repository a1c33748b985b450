import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { COMMUNICATION_CHANNELS, COMMUNICATION_STATUSES } from '../../../shared/contract/enums';
import { createdAt, inList, ts, updatedAt, uuidId } from './columns';
import { appointments, clients, coaches } from './core';

// Every e-mail and SMS the product sends (also the captured ones in development, which the
// development mailbox page reads). Erasing a client erases their messages. Appointment
// messages are written `queued` in the transaction that changed the appointment, then sent
// by a job that counts `attempts` and ends in `sent` or, after the last retry, `failed`.
export const communications = pgTable(
  'communications',
  {
    id: uuidId(),
    channel: text('channel', { enum: COMMUNICATION_CHANNELS }).notNull(),
    template: text('template').notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject'),
    body: text('body').notNull().default(''),
    /** iCalendar attachment of an invitation or cancellation (METHOD REQUEST / CANCEL). */
    calendar: text('calendar'),
    /** REQUEST or CANCEL: the METHOD of `calendar`, given to the mail as its calendar part. */
    calendarMethod: text('calendar_method'),
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
    // The dashboard's "nicht zugestellt": few rows, read newest first.
    index('communications_failed_idx')
      .on(t.createdAt.desc(), t.id.desc())
      .where(sql`${t.status} = 'failed'`),
    check('communications_channel_check', sql`${t.channel} IN ${inList(COMMUNICATION_CHANNELS)}`),
    check('communications_status_check', sql`${t.status} IN ${inList(COMMUNICATION_STATUSES)}`),
    check('communications_sent_check', sql`${t.status} <> 'sent' OR ${t.sentAt} IS NOT NULL`),
    check('communications_attempts_check', sql`${t.attempts} >= 0`),
    check(
      'communications_calendar_method_check',
      sql`${t.calendarMethod} IS NULL OR ${t.calendarMethod} IN ('REQUEST', 'CANCEL')`,
    ),
  ],
);

// The iCalendar SEQUENCE of an appointment's invitations: 0 when booked, raised on every
// reschedule and on the cancellation, so calendar apps replace the older copy.
export const appointmentCalendarSequences = pgTable(
  'appointment_calendar_sequences',
  {
    appointmentId: uuid('appointment_id')
      .primaryKey()
      .references(() => appointments.id, { onDelete: 'cascade' }),
    sequence: integer('sequence').notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [check('appointment_calendar_sequences_check', sql`${t.sequence} >= 0`)],
);

// A coach's subscribable calendar feed: the secret is shown once and stored only as its
// SHA-256 hash; rotating replaces it, revoking deletes the row.
export const calendarFeedTokens = pgTable('calendar_feed_tokens', {
  coachId: uuid('coach_id')
    .primaryKey()
    .references(() => coaches.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull().unique('calendar_feed_tokens_hash_key'),
  createdAt: createdAt(),
});
