import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { WEBHOOK_TYPES } from '../../../shared/contract/enums';
import { createdAt, inList, ts, updatedAt, uuidId } from './columns';
import { users } from './core';

// At most one configuration per type; a type without a row is "not configured".
// The signing secret is answered once, when it is generated, and never again.
export const webhooks = pgTable(
  'webhooks',
  {
    id: uuidId(),
    type: text('type', { enum: WEBHOOK_TYPES }).notNull(),
    url: text('url').notNull(),
    secret: text('secret'),
    /** After a rotation the old secret signs too (both signatures sent) until `previousSecretUntil`. */
    previousSecret: text('previous_secret'),
    previousSecretUntil: ts('previous_secret_until'),
    active: boolean('active').notNull().default(true),
    /** Switched off by the server: `gone` (410) or `failing` (only failures for days). */
    disabledAt: ts('disabled_at'),
    disabledReason: text('disabled_reason', { enum: ['gone', 'failing'] }),
    /** First failed attempt since the last success; null while deliveries succeed. */
    failingSince: ts('failing_since'),
    updatedById: uuid('updated_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('webhooks_type_key').on(t.type),
    check('webhooks_type_check', sql`${t.type} IN ${inList(WEBHOOK_TYPES)}`),
    check('webhooks_url_check', sql`${t.url} ~ '^https?://'`),
    check('webhooks_disabled_reason_check', sql`${t.disabledReason} IN ('gone', 'failing')`),
  ],
);

/**
 * One event to send (its id is the `webhook-id` header of every attempt). The payload is the
 * exact JSON body; thin by rule: ids and non-health fields only.
 */
export const webhookMessages = pgTable(
  'webhook_messages',
  {
    id: text('id').primaryKey(),
    type: text('type', { enum: WEBHOOK_TYPES }).notNull(),
    eventType: text('event_type').notNull(),
    payload: text('payload').notNull(),
    status: text('status', { enum: ['pending', 'delivered', 'failed'] })
      .notNull()
      .default('pending'),
    nextAttemptAt: ts('next_attempt_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('webhook_messages_type_idx').on(t.type, t.createdAt.desc()),
    check('webhook_messages_status_check', sql`${t.status} IN ('pending', 'delivered', 'failed')`),
  ],
);

/** One try to deliver a message: what the receiver answered (first kilobyte) or what failed. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: uuidId(),
    messageId: text('message_id')
      .notNull()
      .references(() => webhookMessages.id, { onDelete: 'cascade' }),
    attemptNo: integer('attempt_no').notNull(),
    attemptedAt: ts('attempted_at').notNull(),
    url: text('url').notNull(),
    httpStatus: integer('http_status'),
    durationMs: integer('duration_ms').notNull(),
    error: text('error'),
    responseSnippet: text('response_snippet'),
    outcome: text('outcome', { enum: ['success', 'failed', 'refused'] }).notNull(),
    manual: boolean('manual').notNull().default(false),
    details: jsonb('details').$type<Record<string, unknown>>(),
  },
  (t) => [
    index('webhook_attempts_message_idx').on(t.messageId, t.attemptNo),
    check('webhook_attempts_outcome_check', sql`${t.outcome} IN ('success', 'failed', 'refused')`),
  ],
);
