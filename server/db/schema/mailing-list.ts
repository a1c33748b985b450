import { sql } from 'drizzle-orm';
import { check, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { MAILING_LIST_SYNC_STATUSES } from '../../../shared/contract/enums';
import { createdAt, inList, ts, updatedAt, uuidId } from './columns';
import { users } from './core';

export type MailingListSyncFailure = { clientId: string; reason: string };

// One row per sync of the mailing list (syncMailchimpList); the job writes its progress here
// after every batch, the admin page reads it. At most one is queued or running at a time.
export const mailingListSyncs = pgTable(
  'mailing_list_syncs',
  {
    id: uuidId(),
    status: text('status', { enum: MAILING_LIST_SYNC_STATUSES }).notNull().default('queued'),
    requestedById: uuid('requested_by_id').references(() => users.id, { onDelete: 'set null' }),
    startedAt: ts('started_at'),
    finishedAt: ts('finished_at'),
    total: integer('total').notNull().default(0),
    processed: integer('processed').notNull().default(0),
    added: integer('added').notNull().default(0),
    updated: integer('updated').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    /** The first 100 failures: client id and the list's reason (no address). */
    failures: jsonb('failures').$type<MailingListSyncFailure[]>().notNull().default([]),
    error: text('error'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check(
      'mailing_list_syncs_status_check',
      sql`${t.status} IN ${inList(MAILING_LIST_SYNC_STATUSES)}`,
    ),
    uniqueIndex('mailing_list_syncs_one_active_key')
      .on(sql`(true)`)
      .where(sql`${t.status} IN ('queued', 'running')`),
  ],
);
