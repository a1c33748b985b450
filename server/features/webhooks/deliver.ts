import { and, count, eq, inArray, max, sql } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { users, webhookAttempts, webhookMessages, webhooks } from '../../db/schema/index';
import type { Mailer } from '../../adapters/mail/mailer';
import type { JobDefinition, JobQueue, RunningJob } from '../../jobs/queue';
import { DELIVER_WEBHOOK_JOB, queueAttempt, TEST_EVENT, type DeliverWebhookData } from './emit';
import { postWebhook, type PostResult } from './http-post';
import { disabledMail } from './mails';
import { nextDelayMs, parseRetryAfter } from './retry-schedule';
import { keyringOf, openSecret, SecretUnreadable } from './secret-box';
import { signatureHeader } from './secrets';
import { inTransaction } from '../../db/transaction';

export interface WebhookJobDeps {
  db: Db;
  config: Pick<
    Config,
    | 'WEBHOOK_ALLOW_PRIVATE_TARGETS'
    | 'WEBHOOK_TIMEOUT_MS'
    | 'WEBHOOK_DISABLE_AFTER_HOURS'
    | 'PUBLIC_URL'
    | 'WEBHOOK_SECRET_KEY'
    | 'WEBHOOK_SECRET_KEY_PREVIOUS'
  >;
  mailer: Mailer;
  jobs: () => JobQueue;
  /** Wall time for the signature's timestamp (receivers compare it with theirs); default real time. */
  wallClock?: () => Date;
  /** Jitter source (tests: fixed). */
  random?: () => number;
}

/** Concurrent deliveries per process: `batchSize` × `concurrency` requests in flight at most. */
export const WEBHOOK_WORK = { batchSize: 25, concurrency: 2 } as const;

type Outcome = 'success' | 'failed' | 'refused';
const outcomeOf = (r: PostResult): Outcome =>
  r.refused
    ? 'refused'
    : r.status !== null && r.status >= 200 && r.status < 300
      ? 'success'
      : 'failed';

const errorOf = (r: PostResult) =>
  r.error ?? (r.status !== null && (r.status < 200 || r.status >= 300) ? `HTTP ${r.status}` : null);

/**
 * One attempt of one message: signed with the current secret (and the previous one while a
 * rotation lasts), posted, recorded. A failed automatic attempt queues the next one by the
 * schedule; 410 switches the webhook off; a webhook that has only failed for
 * WEBHOOK_DISABLE_AFTER_HOURS is switched off and the admins are mailed.
 */
export async function deliverWebhook(
  deps: WebhookJobDeps,
  job: RunningJob<DeliverWebhookData>,
  now: Date,
) {
  const { db } = deps;
  const manual = job.data.manual ?? false;
  const [message] = await db
    .select()
    .from(webhookMessages)
    .where(eq(webhookMessages.id, job.data.messageId));
  if (!message) return { skipped: 'gone' };
  if (!manual && message.status !== 'pending') return { skipped: message.status };
  const [endpoint] = await db.select().from(webhooks).where(eq(webhooks.type, message.type));
  const switchedOff = !endpoint?.active || endpoint.disabledAt !== null;
  if (!endpoint || (!manual && switchedOff)) {
    await db
      .update(webhookMessages)
      .set({ status: 'failed', nextAttemptAt: null })
      .where(and(eq(webhookMessages.id, message.id), eq(webhookMessages.status, 'pending')));
    return { skipped: 'webhook off' };
  }

  const secrets = signingSecrets(deps.config, endpoint, now);
  const sentAt = (deps.wallClock ?? (() => new Date()))();
  const result = secrets
    ? await postWebhook(
        endpoint.url,
        {
          'webhook-id': message.id,
          'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
          'webhook-signature': signatureHeader(secrets, message.id, sentAt, message.payload),
        },
        message.payload,
        {
          timeoutMs: deps.config.WEBHOOK_TIMEOUT_MS,
          allowPrivate: deps.config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
        },
      )
    : UNSIGNABLE;
  const outcome = outcomeOf(result);

  const disabledForFailing = await inTransaction(db, async (tx) => {
    const [numbers] = await tx
      .select({
        last: max(webhookAttempts.attemptNo),
        automatic: count(sql`CASE WHEN NOT ${webhookAttempts.manual} THEN 1 END`),
      })
      .from(webhookAttempts)
      .where(eq(webhookAttempts.messageId, message.id));
    const attemptNo = (numbers?.last ?? 0) + 1;
    const automaticNo = (numbers?.automatic ?? 0) + (manual ? 0 : 1);
    await tx.insert(webhookAttempts).values({
      messageId: message.id,
      attemptNo,
      attemptedAt: now.toISOString(),
      url: endpoint.url,
      httpStatus: result.status,
      durationMs: result.durationMs,
      error: errorOf(result),
      responseSnippet: result.snippet,
      outcome,
      manual,
    });

    if (outcome === 'success') {
      await tx
        .update(webhookMessages)
        .set({ status: 'delivered', nextAttemptAt: null })
        .where(eq(webhookMessages.id, message.id));
      await tx.update(webhooks).set({ failingSince: null }).where(eq(webhooks.id, endpoint.id));
      return false;
    }

    const gone = result.status === 410;
    const failingSince = endpoint.failingSince ?? now.toISOString();
    const failingForMs = now.getTime() - Date.parse(failingSince);
    const tooLong = failingForMs >= deps.config.WEBHOOK_DISABLE_AFTER_HOURS * 3_600_000;
    const disable = !switchedOff && (gone || tooLong);
    await tx
      .update(webhooks)
      .set({
        failingSince,
        ...(disable
          ? {
              disabledAt: now.toISOString(),
              disabledReason: gone ? 'gone' : 'failing',
              active: false,
            }
          : {}),
      })
      .where(eq(webhooks.id, endpoint.id));

    const delay =
      manual || gone || disable
        ? null
        : nextDelayMs(automaticNo, parseRetryAfter(result.retryAfter, now), deps.random);
    // A manual attempt leaves a message's own retries as they were; a test event has no
    // retries of its own, so its one attempt decides how it ends.
    if (message.eventType === TEST_EVENT) {
      await tx
        .update(webhookMessages)
        .set({ status: 'failed', nextAttemptAt: null })
        .where(and(eq(webhookMessages.id, message.id), eq(webhookMessages.status, 'pending')));
    } else if (!manual) {
      const next = delay === null ? null : new Date(now.getTime() + delay);
      await tx
        .update(webhookMessages)
        .set({ status: next ? 'pending' : 'failed', nextAttemptAt: next?.toISOString() ?? null })
        .where(eq(webhookMessages.id, message.id));
      if (next) await queueAttempt(tx, deps.jobs(), message.id, false, next);
    }
    return disable && !gone;
  });

  if (disabledForFailing) await mailAdmins(deps, endpoint, now);
  return { outcome, status: result.status };
}

/** Shown in the delivery log when a secret does not open: what happened and what helps. */
export const SECRET_UNREADABLE_ERROR =
  'Signiergeheimnis nicht lesbar (mit einem anderen WEBHOOK_SECRET_KEY versiegelt): ' +
  'den früheren Schlüssel als WEBHOOK_SECRET_KEY_PREVIOUS setzen oder das Geheimnis erneuern';

/** A failed attempt without a request: nothing could be signed. */
const UNSIGNABLE: PostResult = {
  status: null,
  retryAfter: undefined,
  snippet: null,
  durationMs: 0,
  error: SECRET_UNREADABLE_ERROR,
  refused: false,
};

/**
 * The secrets that sign: the current one, and the previous one while a rotation lasts. Null
 * when one of them does not open with the configured keys (WEBHOOK_SECRET_KEY changed without
 * WEBHOOK_SECRET_KEY_PREVIOUS): the attempt is then logged as failed and retried by the
 * schedule, so deliveries resume once the key is set again or the secret rotated.
 */
function signingSecrets(
  config: WebhookJobDeps['config'],
  endpoint: {
    type: string;
    secret: string | null;
    previousSecret: string | null;
    previousSecretUntil: string | null;
  },
  now: Date,
): string[] | null {
  const keyring = keyringOf(config);
  const stored = [
    endpoint.secret,
    previousSecretValid(endpoint, now) ? endpoint.previousSecret : null,
  ];
  try {
    return stored.filter((s): s is string => !!s).map((s) => openSecret(keyring, endpoint.type, s));
  } catch (error) {
    if (error instanceof SecretUnreadable) return null;
    throw error;
  }
}

function previousSecretValid(
  endpoint: { previousSecret: string | null; previousSecretUntil: string | null },
  now: Date,
) {
  return (
    !!endpoint.previousSecret &&
    !!endpoint.previousSecretUntil &&
    Date.parse(endpoint.previousSecretUntil) > now.getTime()
  );
}

/** The admins learn by e-mail that a webhook was switched off for failing. */
async function mailAdmins(
  deps: WebhookJobDeps,
  { id, type, url }: { id: string; type: string; url: string },
  disabledAt: Date,
) {
  const admins = await deps.db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(eq(users.active, true), inArray(users.role, ['ADMIN', 'SUPERADMIN'])));
  const mail = disabledMail({
    type,
    url,
    hours: deps.config.WEBHOOK_DISABLE_AFTER_HOURS,
    publicUrl: deps.config.PUBLIC_URL,
  });
  for (const admin of admins) {
    if (!admin.email) continue;
    // One message per switch-off and admin, however often the job is tried.
    const key = `webhook-${id}-disabled-${disabledAt.getTime()}-${admin.id}`;
    await deps.mailer.send({ ...mail, to: admin.email, key });
  }
}

/** The webhooks feature's background work: one job per attempt, retries queued by the job itself. */
export function webhookJobs(deps: WebhookJobDeps): JobDefinition[] {
  const definition: JobDefinition<DeliverWebhookData> = {
    name: DELIVER_WEBHOOK_JOB,
    // The schedule is the feature's own (retry-schedule.ts); pg-boss retries only a crash
    // between sending and recording (the receiver drops the duplicate by webhook-id).
    queue: { retryLimit: 2, retryDelay: 30, expireInSeconds: 120, notify: true },
    work: WEBHOOK_WORK,
    run: (job, { now }) => deliverWebhook(deps, job, now),
  };
  return [definition as JobDefinition];
}
