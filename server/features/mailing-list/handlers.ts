import { count, sql } from 'drizzle-orm';
import { clients, mailingListSyncs } from '../../db/schema/index';
import { defineHandlers } from '../../http/handler';
import { conflict } from '../../http/problem';
import { recordEvent } from '../events/index';
import {
  currentSync,
  failStaleSyncs,
  mailchimpSettings,
  SYNC_MAILING_LIST_JOB,
  toSync,
} from './sync';
import { applyMailchimpWebhook } from './webhook';
import { inTransaction } from '../../db/transaction';

const RECEIVED = { received: true } as const;

export const mailingListHandlers = defineHandlers({
  // The shared secret in the URL is checked for both before they run (http/routes.ts).
  async checkMailchimpWebhook() {
    return RECEIVED;
  },

  async receiveMailchimpWebhook({ body, deps }) {
    await applyMailchimpWebhook(deps.db, deps.jobs, body, deps.now());
    // The same answer whether the address is a client's or not: nothing to probe.
    return RECEIVED;
  },

  async syncMailchimpList({ deps, principal, reply }) {
    if (!mailchimpSettings(deps.config)) {
      throw conflict(
        'mailing_list_not_configured',
        'The mailing list sync needs MAILCHIMP_API_KEY and MAILCHIMP_LIST_ID',
      );
    }
    await failStaleSyncs(deps.db);
    const running = await currentSync(deps.db);
    if (running && (running.status === 'queued' || running.status === 'running')) {
      throw conflict('sync_running', 'A sync of the mailing list is queued or running');
    }
    const row = await inTransaction(deps.db, async (tx) => {
      const [created] = await tx
        .insert(mailingListSyncs)
        .values({ requestedById: principal.user?.id ?? null })
        .returning();
      await deps.jobs.send(tx, SYNC_MAILING_LIST_JOB, { syncId: created!.id });
      await recordEvent(tx, {
        type: 'mailing_list.sync_requested',
        entityType: 'mailing_list_sync',
        entityId: created!.id,
        actor: principal,
        important: false,
      });
      return created!;
    });
    reply.code(202);
    return toSync(row);
  },

  async getMailingListOverview({ deps }) {
    const sync = await currentSync(deps.db);
    const [counts] = await deps.db
      .select({
        consenting:
          sql<number>`count(*) FILTER (WHERE ${clients.newsletterConsent} AND ${clients.email} IS NOT NULL)`.mapWith(
            Number,
          ),
        bounced: count(clients.emailBouncedAt),
        bouncedHard:
          sql<number>`count(*) FILTER (WHERE ${clients.emailBounceReason} = 'hard')`.mapWith(
            Number,
          ),
        bouncedAbuse:
          sql<number>`count(*) FILTER (WHERE ${clients.emailBounceReason} = 'abuse')`.mapWith(
            Number,
          ),
        unsubscribed:
          sql<number>`count(*) FILTER (WHERE ${clients.mailingListStatus} = 'unsubscribed')`.mapWith(
            Number,
          ),
      })
      .from(clients);
    return {
      configured: mailchimpSettings(deps.config) !== null,
      sync: sync ? toSync(sync) : null,
      counts: counts!,
    };
  },
});
