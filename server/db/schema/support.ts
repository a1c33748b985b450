import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { SUPPORT_CATEGORIES } from '../../../shared/contract/enums';
import { createdAt, inList, ts, uuidId } from './columns';
import { users } from './core';

export const supportMessages = pgTable(
  'support_messages',
  {
    id: uuidId(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    // Copied at send time so the request stays answerable if the user is removed.
    senderEmail: text('sender_email').notNull(),
    category: text('category', { enum: SUPPORT_CATEGORIES }).notNull(),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    forwardedAt: ts('forwarded_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('support_messages_created_idx').on(t.createdAt.desc()),
    index('support_messages_user_idx').on(t.userId, t.createdAt.desc()),
    check('support_messages_category_check', sql`${t.category} IN ${inList(SUPPORT_CATEGORIES)}`),
    check('support_messages_subject_check', sql`char_length(${t.subject}) BETWEEN 1 AND 200`),
    check('support_messages_message_check', sql`char_length(${t.message}) BETWEEN 1 AND 5000`),
  ],
);
