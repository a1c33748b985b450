import { and, asc, count, desc, eq, gt, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { clients, mailingListSyncs, type MailingListSyncFailure } from '../../db/schema/index';
import type { JobDefinition, JobQueue } from '../../jobs/queue';
import { MAILING_LIST_STATUSES } from '../../../shared/contract/enums';
import {
  createMailchimpClient,
  defaultBaseUrl,
  type MailchimpSettings,
} from '../../adapters/mailing-list/mailchimp';
import { recordEvent } from '../events/index';
import { clientData, emitWebhook } from '../webhooks/index';
import { inTransaction } from '../../db/transaction';

export const SYNC_MAILING_LIST_JOB = 'sync-mailing-list';
/** Clients read per batch; progress is stored after each. */
export const SYNC_BATCH = 50;
/** Requests in flight at once (Mailchimp allows 10 connections per key). */
const PARALLEL = 5;
const MAX_FAILURES = 100;
/** A queued or running sync without progress for this long counts as lost (process died). */
const STALE_MINUTES = 30;

export type MailingListConfig = Pick<
  Config,
  'MAILCHIMP_API_KEY' | 'MAILCHIMP_LIST_ID' | 'MAILCHIMP_API_URL' | 'MAILCHIMP_STATUS_IF_NEW'
>;

/** The API settings, or null while the sync is off (no key, no list, or no derivable host). */
export function mailchimpSettings(config: MailingListConfig): MailchimpSettings | null {
  const { MAILCHIMP_API_KEY: apiKey, MAILCHIMP_LIST_ID: listId } = config;
  if (!apiKey || !listId) return null;
  const baseUrl = config.MAILCHIMP_API_URL ?? defaultBaseUrl(apiKey);
  return baseUrl ? { apiKey, listId, baseUrl } : null;
}

/** Who the sync puts on the list: consent, an address, no known bounce. */
export const syncable = and(
  eq(clients.newsletterConsent, true),
  isNotNull(clients.email),
  isNull(clients.emailBouncedAt),
);

export type MailingListSyncRow = typeof mailingListSyncs.$inferSelect;

export const toSync = (row: MailingListSyncRow) => ({
  id: row.id,
  status: row.status,
  requestedAt: row.createdAt,
  startedAt: row.startedAt,
  finishedAt: row.finishedAt,
  total: row.total,
  processed: row.processed,
  added: row.added,
  updated: row.updated,
  failed: row.failed,
  failures: row.failures,
  error: row.error,
});

/** The running sync, else the newest one. */
export async function currentSync(db: Db) {
  const [row] = await db
    .select()
    .from(mailingListSyncs)
    .orderBy(
      sql`${mailingListSyncs.status} IN ('queued', 'running') DESC`,
      desc(mailingListSyncs.createdAt),
    )
    .limit(1);
  return row ?? null;
}

/** Marks syncs that stopped moving (their process died) as failed, so a new one may start. */
export async function failStaleSyncs(db: Db) {
  await db
    .update(mailingListSyncs)
    .set({
      status: 'failed',
      error: 'Abgebrochen: keine Rückmeldung mehr',
      finishedAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        inArray(mailingListSyncs.status, ['queued', 'running']),
        lt(mailingListSyncs.updatedAt, sql`now() - make_interval(mins => ${STALE_MINUTES})`),
      ),
    );
}

async function finish(db: Db, syncId: string, values: Partial<MailingListSyncRow>) {
  const [row] = await db
    .update(mailingListSyncs)
    .set({ ...values, finishedAt: sql`now()`, updatedAt: sql`now()` })
    .where(eq(mailingListSyncs.id, syncId))
    .returning();
  if (!row) return;
  await recordEvent(db, {
    type: 'mailing_list.synced',
    entityType: 'mailing_list_sync',
    entityId: syncId,
    source: 'system',
    important: row.status === 'failed' || row.failed > 0,
    changes: {
      status: row.status,
      total: row.total,
      added: row.added,
      updated: row.updated,
      failed: row.failed,
    },
  });
}

type MailingListStatus = (typeof MAILING_LIST_STATUSES)[number];
const knownStatus = (s: string) =>
  (MAILING_LIST_STATUSES as readonly string[]).includes(s) ? (s as MailingListStatus) : null;

/**
 * One sync: checks the list, then upserts the syncable clients in id order, SYNC_BATCH at a
 * time (PARALLEL requests at once), storing progress after each batch. A member is "added"
 * when the product had not put it on the list before (no status known), else "updated"; the
 * status the list answers is stored on the client. A failed member is counted with the list's
 * reason and the sync goes on; a list that cannot be reached stops the sync (failed).
 * A client whose stored status changes gets its `client.updated` webhook in the same
 * transaction (as a staff edit does); a member whose status stays the same sends nothing.
 */
export async function runMailingListSync(
  db: Db,
  jobs: JobQueue,
  config: MailingListConfig,
  syncId: string,
): Promise<void> {
  const [claimed] = await db
    .update(mailingListSyncs)
    .set({ status: 'running', startedAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(mailingListSyncs.id, syncId), eq(mailingListSyncs.status, 'queued')))
    .returning({ id: mailingListSyncs.id });
  if (!claimed) return; // done already, or given up as stale
  try {
    const settings = mailchimpSettings(config);
    if (!settings) {
      await finish(db, syncId, {
        status: 'failed',
        error: 'Die Newsletter-Liste ist nicht eingerichtet',
      });
      return;
    }
    const api = createMailchimpClient(settings);
    const check = await api.checkList();
    if (!check.ok) {
      await finish(db, syncId, {
        status: 'failed',
        error: `Liste nicht erreichbar: ${check.reason}`,
      });
      return;
    }
    const [{ total } = { total: 0 }] = await db
      .select({ total: count() })
      .from(clients)
      .where(syncable);
    await db
      .update(mailingListSyncs)
      .set({ total, updatedAt: sql`now()` })
      .where(eq(mailingListSyncs.id, syncId));

    const tally = { processed: 0, added: 0, updated: 0, failed: 0 };
    const failures: MailingListSyncFailure[] = [];
    let after: string | null = null;
    for (;;) {
      const batch = await db
        .select({
          id: clients.id,
          email: clients.email,
          firstName: clients.firstName,
          lastName: clients.lastName,
          mailingListStatus: clients.mailingListStatus,
        })
        .from(clients)
        .where(and(syncable, after ? gt(clients.id, after) : undefined))
        .orderBy(asc(clients.id))
        .limit(SYNC_BATCH);
      if (batch.length === 0) break;
      after = batch.at(-1)!.id;
      for (let i = 0; i < batch.length; i += PARALLEL) {
        const group = batch.slice(i, i + PARALLEL);
        const results = await Promise.all(
          group.map((c) =>
            api.upsertMember({
              email: c.email!,
              firstName: c.firstName,
              lastName: c.lastName,
              statusIfNew: config.MAILCHIMP_STATUS_IF_NEW,
            }),
          ),
        );
        for (const [k, result] of results.entries()) {
          const client = group[k]!;
          tally.processed += 1;
          if (!result.ok) {
            tally.failed += 1;
            if (failures.length < MAX_FAILURES)
              failures.push({ clientId: client.id, reason: result.reason });
            continue;
          }
          if (client.mailingListStatus === null) tally.added += 1;
          else tally.updated += 1;
          const status = knownStatus(result.value.status);
          if (status && status !== client.mailingListStatus)
            await storeStatus(db, jobs, client.id, status);
        }
      }
      await db
        .update(mailingListSyncs)
        .set({ ...tally, failures, updatedAt: sql`now()` })
        .where(eq(mailingListSyncs.id, syncId));
    }
    await finish(db, syncId, {
      status: 'done',
      ...tally,
      failures,
      total: Math.max(total, tally.processed),
    });
  } catch (error) {
    await finish(db, syncId, { status: 'failed', error: 'Interner Fehler beim Abgleich' });
    throw error;
  }
}

/**
 * Stores the status the list answered, only if the row still holds another one (a webhook of
 * the list may have set it meanwhile), with the `client.updated` webhook in the same
 * transaction; no row changed → nothing sent.
 */
async function storeStatus(db: Db, jobs: JobQueue, clientId: string, status: MailingListStatus) {
  await inTransaction(db, async (tx) => {
    const [changed] = await tx
      .update(clients)
      .set({ mailingListStatus: status, updatedAt: sql`now()` })
      .where(
        and(eq(clients.id, clientId), sql`${clients.mailingListStatus} IS DISTINCT FROM ${status}`),
      )
      .returning({ id: clients.id, coachId: clients.coachedById });
    if (changed)
      await emitWebhook(tx, jobs, 'client.updated', clientData(changed.id, changed.coachId));
  });
}

export function mailingListJobs(deps: {
  db: Db;
  config: MailingListConfig;
  /** The started queue (the sync queues webhooks). */
  jobs: () => JobQueue;
}): JobDefinition[] {
  const definition: JobDefinition<{ syncId: string }> = {
    name: SYNC_MAILING_LIST_JOB,
    // The sync records its own failure; a retry would only find it finished.
    queue: { retryLimit: 0, expireInSeconds: 60 * 60 },
    run: (job) => runMailingListSync(deps.db, deps.jobs(), deps.config, job.data.syncId),
  };
  return [definition as JobDefinition];
}
