import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { WEBHOOK_TYPES } from '../../../shared/contract/enums';
import type { components } from '../../../shared/contract/product';
import { childrenOf } from '../../db/children';
import type { Db, Tx } from '../../db/client';
import { webhookAttempts, webhookMessages, webhooks } from '../../db/schema/index';
import { defineHandlers } from '../../http/handler';
import { badRequest, conflict, notFound } from '../../http/problem';
import { recordEvent } from '../events/index';
import { payloadOf, queueAttempt, queueMessage, TEST_EVENT, type WebhookType } from './emit';
import { keyringOf, openSecret, sealSecret, SecretUnreadable } from './secret-box';
import { newWebhookSecret } from './secrets';
import { saveRefusalOf } from './target-guard';
import { inTransaction } from '../../db/transaction';

type Schemas = components['schemas'];
type Row = typeof webhooks.$inferSelect;

/** How long the old secret keeps signing after a rotation. */
const ROTATION_OVERLAP_MS = 24 * 3_600_000;

type LastDelivery = Schemas['WebhookLastDelivery'];

function toWebhook(
  type: WebhookType,
  row: Row | undefined,
  last: LastDelivery | null,
): Schemas['Webhook'] {
  return {
    type,
    url: row?.url ?? null,
    secretSet: !!row?.secret,
    active: row?.active ?? false,
    updatedAt: row?.updatedAt ?? null,
    disabledAt: row?.disabledAt ?? null,
    disabledReason: row?.disabledReason ?? null,
    failingSince: row?.failingSince ?? null,
    previousSecretUntil: row?.previousSecretUntil ?? null,
    lastDelivery: last,
  };
}

async function rowOf(db: Db | Tx, type: WebhookType) {
  const [row] = await db.select().from(webhooks).where(eq(webhooks.type, type));
  return row;
}

/**
 * The configured webhooks (all, or one type) each with its newest message and that message's
 * newest attempt: one query, two index probes per webhook (webhook_messages_type_idx,
 * webhook_attempts_message_idx), however long the log is.
 */
async function webhooksWithLast(db: Db | Tx, type?: WebhookType) {
  const message = db
    .select({
      messageId: sql<string>`${webhookMessages.id}`.as('last_message_id'),
      eventType: webhookMessages.eventType,
      createdAt: sql<string>`${webhookMessages.createdAt}`.as('last_created_at'),
      status: sql<LastDelivery['status']>`${webhookMessages.status}`.as('last_status'),
    })
    .from(webhookMessages)
    .where(eq(webhookMessages.type, webhooks.type))
    .orderBy(desc(webhookMessages.createdAt), desc(webhookMessages.id))
    .limit(1)
    .as('last_message');
  const attempt = db
    .select({
      attemptedAt: webhookAttempts.attemptedAt,
      httpStatus: webhookAttempts.httpStatus,
      outcome: webhookAttempts.outcome,
    })
    .from(webhookAttempts)
    .where(eq(webhookAttempts.messageId, message.messageId))
    .orderBy(desc(webhookAttempts.attemptNo))
    .limit(1)
    .as('last_attempt');
  const rows = await db
    .select({
      row: webhooks,
      messageId: message.messageId,
      eventType: message.eventType,
      createdAt: message.createdAt,
      status: message.status,
      attemptedAt: attempt.attemptedAt,
      httpStatus: attempt.httpStatus,
      outcome: attempt.outcome,
    })
    .from(webhooks)
    .leftJoinLateral(message, sql`true`)
    .leftJoinLateral(attempt, sql`true`)
    .where(type ? eq(webhooks.type, type) : undefined);
  return rows.map(({ row, ...m }) => ({
    row,
    last:
      m.messageId && m.eventType && m.createdAt && m.status
        ? {
            messageId: m.messageId,
            eventType: m.eventType,
            createdAt: new Date(m.createdAt).toISOString(),
            status: m.status,
            attemptedAt: m.attemptedAt ? new Date(m.attemptedAt).toISOString() : null,
            httpStatus: m.httpStatus ?? null,
            ok: m.outcome === 'success',
          }
        : null,
  }));
}

/**
 * The outgoing secret sealed with the current key (an old clear one too), to keep signing
 * during a rotation; null when there was none or it no longer opens (then only the new one signs).
 */
function resealed(keyring: ReturnType<typeof keyringOf>, type: WebhookType, stored: string | null) {
  if (!stored) return null;
  try {
    return sealSecret(keyring, type, openSecret(keyring, type, stored));
  } catch (error) {
    if (error instanceof SecretUnreadable) return null;
    throw error;
  }
}

/** One type as the API answers it, with its newest delivery. */
async function webhookOf(db: Db | Tx, type: WebhookType) {
  const [found] = await webhooksWithLast(db, type);
  return toWebhook(type, found?.row, found?.last ?? null);
}

async function deliveries(db: Db | Tx, where: ReturnType<typeof eq>, limit: number) {
  const messages = await db
    .select()
    .from(webhookMessages)
    .where(where)
    .orderBy(desc(webhookMessages.createdAt), desc(webhookMessages.id))
    .limit(limit);
  const attempts = await childrenOf(
    db,
    webhookAttempts,
    'messageId',
    messages.map((m) => m.id),
    asc(webhookAttempts.attemptNo),
  );
  return messages.map((m): Schemas['WebhookDelivery'] => ({
    messageId: m.id,
    type: m.type,
    eventType: m.eventType,
    createdAt: m.createdAt,
    status: m.status,
    nextAttemptAt: m.nextAttemptAt,
    attempts: (attempts.get(m.id) ?? []).map((a) => ({
      attemptNo: a.attemptNo,
      attemptedAt: a.attemptedAt,
      httpStatus: a.httpStatus,
      durationMs: a.durationMs,
      error: a.error,
      responseSnippet: a.responseSnippet,
      outcome: a.outcome,
      manual: a.manual,
    })),
  }));
}

const oneDelivery = async (db: Db, messageId: string) =>
  (await deliveries(db, eq(webhookMessages.id, messageId), 1))[0]!;

/** /admin/webhook…: SUPERADMIN (the contract's x-roles); every change is a business event. */
export const webhooksHandlers = defineHandlers({
  async listWebhooks({ deps }) {
    const rows = await webhooksWithLast(deps.db);
    return {
      webhooks: WEBHOOK_TYPES.map((type) => {
        const found = rows.find((r) => r.row.type === type);
        return toWebhook(type, found?.row, found?.last ?? null);
      }),
    };
  },

  async getWebhook({ params, deps }) {
    return webhookOf(deps.db, params.type);
  },

  async updateWebhook({ params, body, principal, deps }) {
    const refusal = await saveRefusalOf(body.url, deps.config.WEBHOOK_ALLOW_PRIVATE_TARGETS);
    if (refusal) throw badRequest('url', 'webhook_target_refused', refusal);
    return inTransaction(deps.db, async (tx) => {
      const before = await rowOf(tx, params.type);
      // The first save generates the secret: a webhook is never sent unsigned.
      const secret = before?.secret ? null : newWebhookSecret();
      // Switching a webhook on again clears what the server recorded when it switched it off.
      const revive = body.active
        ? { disabledAt: null, disabledReason: null, failingSince: null }
        : {};
      const values = {
        url: body.url,
        active: body.active,
        updatedById: principal.user?.id ?? null,
        ...(secret ? { secret: sealSecret(keyringOf(deps.config), params.type, secret) } : {}),
        ...revive,
      };
      const [row] = await tx
        .insert(webhooks)
        .values({ type: params.type, ...values })
        .onConflictDoUpdate({ target: webhooks.type, set: { ...values, updatedAt: sql`now()` } })
        .returning();
      await recordEvent(tx, {
        type: before ? 'webhook.updated' : 'webhook.created',
        entityType: 'webhook',
        entityId: row!.id,
        actor: principal,
        important: false,
        changes: {
          type: params.type,
          url: body.url,
          active: body.active,
          secretGenerated: !!secret,
        },
      });
      return { webhook: await webhookOf(tx, params.type), secret };
    });
  },

  async rotateWebhookSecret({ params, principal, deps }) {
    return inTransaction(deps.db, async (tx) => {
      const before = await rowOf(tx, params.type);
      if (!before) throw notFound('webhook');
      const secret = newWebhookSecret();
      const until = new Date(deps.now().getTime() + ROTATION_OVERLAP_MS).toISOString();
      const keyring = keyringOf(deps.config);
      const previous = resealed(keyring, params.type, before.secret);
      const [row] = await tx
        .update(webhooks)
        .set({
          secret: sealSecret(keyring, params.type, secret),
          previousSecret: previous,
          previousSecretUntil: previous ? until : null,
          updatedById: principal.user?.id ?? null,
          updatedAt: sql`now()`,
        })
        .where(eq(webhooks.id, before.id))
        .returning();
      await recordEvent(tx, {
        type: 'webhook.secret_rotated',
        entityType: 'webhook',
        entityId: before.id,
        actor: principal,
        important: false,
        changes: { type: params.type, previousSecretUntil: row!.previousSecretUntil },
      });
      return { webhook: await webhookOf(tx, params.type), secret };
    });
  },

  async sendWebhookTest({ params, principal, deps, reply }) {
    const messageId = await inTransaction(deps.db, async (tx) => {
      const row = await rowOf(tx, params.type);
      if (!row) throw conflict('webhook_not_configured', 'The webhook has no URL yet');
      const payload = payloadOf(TEST_EVENT, deps.jobs.now(), { webhookType: params.type });
      const id = await queueMessage(
        tx,
        deps.jobs,
        { type: params.type, eventType: TEST_EVENT, payload },
        { manual: true },
      );
      await recordEvent(tx, {
        type: 'webhook.test_sent',
        entityType: 'webhook',
        entityId: row.id,
        actor: principal,
        important: false,
        changes: { type: params.type, messageId: id },
      });
      return id;
    });
    reply.code(202);
    return oneDelivery(deps.db, messageId);
  },

  async listWebhookDeliveries({ params, query, deps }) {
    return {
      deliveries: await deliveries(
        deps.db,
        eq(webhookMessages.type, params.type),
        query.limit ?? 20,
      ),
    };
  },

  async redeliverWebhookMessage({ params, principal, deps, reply }) {
    await inTransaction(deps.db, async (tx) => {
      const [message] = await tx
        .select({ id: webhookMessages.id })
        .from(webhookMessages)
        .where(
          and(eq(webhookMessages.id, params.messageId), eq(webhookMessages.type, params.type)),
        );
      if (!message) throw notFound('webhook message');
      const row = await rowOf(tx, params.type);
      if (!row) throw conflict('webhook_not_configured', 'The webhook has no URL');
      await queueAttempt(tx, deps.jobs, message.id, true);
      await recordEvent(tx, {
        type: 'webhook.redelivered',
        entityType: 'webhook',
        entityId: row.id,
        actor: principal,
        important: false,
        changes: { type: params.type, messageId: message.id },
      });
    });
    reply.code(202);
    return oneDelivery(deps.db, params.messageId);
  },
});
