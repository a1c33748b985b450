import { sql } from 'drizzle-orm';
import { boolean, check, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { WEBHOOK_TYPES } from '../../../shared/contract/enums';
import { createdAt, inList, updatedAt, users } from './core';

// At most one configuration per type; a type without a row is "not configured".
// The signing secret is never returned by the API (only `secretSet`).
export const webhooks = pgTable(
  'webhooks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    type: text('type', { enum: WEBHOOK_TYPES }).notNull(),
    url: text('url').notNull(),
    secret: text('secret'),
    active: boolean('active').notNull().default(true),
    updatedById: uuid('updated_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('webhooks_type_key').on(t.type),
    check('webhooks_type_check', sql`${t.type} IN ${inList(WEBHOOK_TYPES)}`),
    check('webhooks_url_check', sql`${t.url} ~ '^https://'`),
  ],
);
