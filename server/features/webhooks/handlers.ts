import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { WEBHOOK_TYPES } from '../../../shared/contract/enums';
import type { components } from '../../../shared/contract/product';
import { childrenOf } from '../../db/children';
import type { Db, Tx } from '../../db/client';
import { webhookAttempts, webhookMessages, webhooks } from '../../db/schema/index';
import { defineHandlers } from '../../http/handler';
import { conflict, notFound } from '../../http/problem';
import { recordEvent, updateRecorded } from '../events/index';
import { payloadOf, queueAttempt, queueMessage, type WebhookType } from './emit';
import { newWebhookSecret } from './secrets';

type Schemas = components['schemas'];
type Row = typeof webhooks.$inferSelect;

/** How long the old secret keeps signing after a rotation. */
const ROTATION_OVERLAP_MS = 24 * 3_600_000;

function toWebhook(type: WebhookType, row: Row | undefined): Schemas['Webhook'] {
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
  };
}

async function rowOf(db: Db | Tx, type: WebhookType) {
  const [row] = await db.select().from(webhooks).where(eq(webhooks.type, type));
  return row;
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
    const rows = await deps.db.select().from(webhooks);
    return {
      webhooks: WEBHOOK_TYPES.map((type) =>
        toWebhook(
          type,
          rows.find((r) => r.type === type),
        ),
      ),
    };
  },

  async getWebhook({ params, deps }) {
    return toWebhook(params.type, await rowOf(deps.db, params.type));
  },

  async updateWebhook({ params, body, principal, deps }) {
    return deps.db.transaction(async (tx) => {
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
        ...(secret ? { secret } : {}),
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
      return { webhook: toWebhook(params.type, row), secret };
    });
  },

  async rotateWebhookSecret({ params, principal, deps }) {
    return deps.db.transaction(async (tx) => {
      const before = await rowOf(tx, params.type);
      if (!before) throw notFound('webhook');
      const secret = newWebhookSecret();
      const until = new Date(deps.now().getTime() + ROTATION_OVERLAP_MS).toISOString();
      const previousSecretUntil = before.secret ? until : null;
      const row = await updateRecorded(
        tx,
        webhooks,
        before.id,
        {
          secret,
          previousSecret: before.secret,
          previousSecretUntil,
          updatedById: principal.user?.id ?? null,
        },
        {
          type: 'webhook.secret_rotated',
          entityType: 'webhook',
          actor: principal,
          important: false,
          changes: { type: params.type, previousSecretUntil },
        },
      );
      return { webhook: toWebhook(params.type, row), secret };
    });
  },

  async sendWebhookTest({ params, principal, deps, reply }) {
    const messageId = await deps.db.transaction(async (tx) => {
      const row = await rowOf(tx, params.type);
      if (!row) throw conflict('webhook_not_configured', 'The webhook has no URL yet');
      const payload = payloadOf('webhook.test', deps.jobs.now(), { webhookType: params.type });
      const id = await queueMessage(
        tx,
        deps.jobs,
        { type: params.type, eventType: 'webhook.test', payload },
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
    await deps.db.transaction(async (tx) => {
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
