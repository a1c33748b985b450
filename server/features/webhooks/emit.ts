import { randomUUID } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { components } from '../../../shared/contract/product';
import type { Db, Tx } from '../../db/client';
import { webhookMessages, webhooks } from '../../db/schema/index';
import type { JobQueue } from '../../jobs/queue';

export type WebhookType = components['schemas']['WebhookType'];
export const DELIVER_WEBHOOK_JOB = 'deliver-webhook';
/** The event type of a test sent from the admin page: one attempt, no retries. */
export const TEST_EVENT = 'webhook.test';

export interface DeliverWebhookData {
  messageId: string;
  /** "Deliver again" or a test: one attempt, no automatic retries after it. */
  manual?: boolean;
}

/** Ids and non-health fields only: never diagnoses, notes or summaries. */
export type ThinData = Record<string, string | number | boolean | null>;

/** The webhook-id: a UUID, unique per message and the same on each of its attempts. */
export const newMessageId = () => randomUUID();

/** The Standard Webhooks body: `{type, timestamp, data}`, the exact bytes that are signed. */
export const payloadOf = (eventType: string, at: Date, data: ThinData) =>
  JSON.stringify({ type: eventType, timestamp: at.toISOString(), data });

/**
 * Queues the webhook of an event in the caller's transaction: the message and its delivery
 * job exist only if the change commits, so a rolled-back change sends nothing. Nothing is
 * written while the type has no active endpoint.
 */
export async function emitWebhook(
  tx: Db | Tx,
  jobs: JobQueue,
  type: WebhookType,
  data: ThinData,
  at: Date = jobs.now(),
): Promise<string | null> {
  const [id] = await emitWebhooks(tx, jobs, type, [data], at);
  return id ?? null;
}

/** One message per entry (a batch of billable items), the endpoint looked up once. */
export async function emitWebhooks(
  tx: Db | Tx,
  jobs: JobQueue,
  type: WebhookType,
  list: ThinData[],
  at: Date = jobs.now(),
): Promise<string[]> {
  if (list.length === 0) return [];
  const [endpoint] = await tx
    .select({ id: webhooks.id })
    .from(webhooks)
    .where(and(eq(webhooks.type, type), eq(webhooks.active, true), isNull(webhooks.disabledAt)));
  if (!endpoint) return [];
  const ids: string[] = [];
  for (const data of list) {
    ids.push(
      await queueMessage(tx, jobs, { type, eventType: type, payload: payloadOf(type, at, data) }),
    );
  }
  return ids;
}

export async function queueMessage(
  tx: Db | Tx,
  jobs: JobQueue,
  message: { type: WebhookType; eventType: string; payload: string },
  options: { manual?: boolean } = {},
): Promise<string> {
  const id = newMessageId();
  await tx
    .insert(webhookMessages)
    .values({ id, ...message, nextAttemptAt: jobs.now().toISOString() });
  await queueAttempt(tx, jobs, id, options.manual ?? false);
  return id;
}

export async function queueAttempt(
  tx: Db | Tx,
  jobs: JobQueue,
  messageId: string,
  manual: boolean,
  startAfter?: Date,
) {
  await jobs.send<DeliverWebhookData>(
    tx,
    DELIVER_WEBHOOK_JOB,
    { messageId, ...(manual ? { manual: true } : {}) },
    startAfter ? { startAfter } : {},
  );
}
