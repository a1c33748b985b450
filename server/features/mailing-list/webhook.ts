import type { EventType } from '../../../shared/contract/enums';
import { eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { emailHolder } from '../../db/email-holder';
import { clients } from '../../db/schema/index';
import type { Body } from '../../http/handler';
import { badRequest } from '../../http/problem';
import type { JobQueue } from '../../jobs/queue';
import { changedFields, recordEvent } from '../events/index';
import { clientData, emitWebhook } from '../webhooks/index';
import { inTransaction } from '../../db/transaction';

export type MailchimpWebhook = Body<'receiveMailchimpWebhook'>;

type ClientRow = typeof clients.$inferSelect;
type Change = Partial<
  Pick<
    ClientRow,
    'newsletterConsent' | 'mailingListStatus' | 'emailBouncedAt' | 'emailBounceReason' | 'email'
  >
>;

/** The business event of each kind of change (German labels: eventActions in staff.json). */
export const MAILING_LIST_EVENTS = {
  changed: 'client.mailing_list_changed',
  bounced: 'client.email_bounced',
  emailChanged: 'client.email_changed_by_mailing_list',
} as const;

function field(data: MailchimpWebhook['data'], name: 'email' | 'old_email' | 'new_email') {
  const value = data[name];
  if (typeof value !== 'string' || !value.trim()) {
    throw badRequest(`data.${name}`, 'value_missing', `${name} is missing`);
  }
  return value.trim();
}

async function clientByEmail(tx: Tx, email: string) {
  const [row] = await tx
    .select()
    .from(clients)
    .where(sql`lower(${clients.email}) = lower(${email})`)
    .limit(1)
    .for('update');
  return row ?? null;
}

/**
 * Writes the fields that differ, records one event and queues the `client.updated` webhook in
 * the same transaction (as a staff edit does); nothing differs → nothing happens, nothing sent.
 */
async function change(
  tx: Tx,
  jobs: JobQueue,
  client: ClientRow,
  wanted: Change,
  type: EventType,
  via: string,
) {
  const changes = changedFields(client as Record<string, unknown>, wanted);
  if (Object.keys(changes).length === 0) return;
  const set = Object.fromEntries(Object.keys(changes).map((k) => [k, wanted[k as keyof Change]]));
  await tx
    .update(clients)
    .set({ ...set, updatedAt: sql`now()` })
    .where(eq(clients.id, client.id));
  await recordEvent(tx, {
    type,
    entityType: 'client',
    entityId: client.id,
    clientId: client.id,
    coachId: client.coachedById,
    important: type === MAILING_LIST_EVENTS.bounced,
    changes: { ...changes, via: `mailing_list_${via}` },
  });
  await emitWebhook(tx, jobs, 'client.updated', clientData(client.id, client.coachedById));
}

/**
 * One notification of the mailing list, applied to the client with that address:
 * - `unsubscribe`: the newsletter consent is withdrawn, status unsubscribed;
 * - `cleaned` (reason hard or abuse): the bounce flag, status cleaned (the consent stands: the
 *   address is dead, not the agreement; the sync leaves bounced addresses out);
 * - `subscribe`: consent given on the list's own form, status subscribed;
 * - `profile`: the member exists on the list, status subscribed if nothing else was known;
 * - `upemail`: a client record not linked to a login moves to the new address (a login's
 *   address follows the authentication provider, never a mailing list) unless another
 *   client holds it; the old bounce flag goes with the old address.
 * Applying the same notification again changes nothing; an unknown address changes nothing.
 */
export async function applyMailchimpWebhook(
  db: Db,
  jobs: JobQueue,
  body: MailchimpWebhook,
  now: Date,
) {
  const { type, data } = body;
  if (type === 'upemail') {
    const oldEmail = field(data, 'old_email');
    const newEmail = field(data, 'new_email');
    await inTransaction(db, async (tx) => {
      const client = await clientByEmail(tx, oldEmail);
      if (!client || client.userId !== null) return;
      if (client.email?.toLowerCase() === newEmail.toLowerCase()) return;
      const holder = await emailHolder(tx, clients, newEmail);
      if (holder && holder !== client.id) return;
      await change(
        tx,
        jobs,
        client,
        { email: newEmail, emailBouncedAt: null, emailBounceReason: null },
        MAILING_LIST_EVENTS.emailChanged,
        type,
      );
    });
    return;
  }
  const wanted = (client: ClientRow): [Change, EventType] | null => {
    switch (type) {
      case 'unsubscribe':
        return [
          { newsletterConsent: false, mailingListStatus: 'unsubscribed' },
          MAILING_LIST_EVENTS.changed,
        ];
      case 'subscribe':
        return [
          { newsletterConsent: true, mailingListStatus: 'subscribed' },
          MAILING_LIST_EVENTS.changed,
        ];
      case 'profile':
        return client.mailingListStatus === null
          ? [{ mailingListStatus: 'subscribed' }, MAILING_LIST_EVENTS.changed]
          : null;
      case 'cleaned':
        return [
          {
            mailingListStatus: 'cleaned',
            emailBounceReason: data.reason === 'abuse' ? 'abuse' : 'hard',
            // A repeat keeps the first report's time.
            emailBouncedAt: client.emailBouncedAt ?? now.toISOString(),
          },
          MAILING_LIST_EVENTS.bounced,
        ];
      default:
        return null; // campaign and anything new: acknowledged, nothing to do
    }
  };
  if (!['unsubscribe', 'subscribe', 'profile', 'cleaned'].includes(type)) return;
  const email = field(data, 'email');
  await inTransaction(db, async (tx) => {
    const client = await clientByEmail(tx, email);
    if (!client) return;
    const plan = wanted(client);
    if (plan) await change(tx, jobs, client, plan[0], plan[1], type);
  });
}
