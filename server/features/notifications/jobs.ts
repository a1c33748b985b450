import { eq, sql } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { communicationAttachments, communications } from '../../db/schema/index';
import { isPermanentMailError, type Mailer } from '../../adapters/mail/mailer';
import type { SmsSender } from '../../adapters/sms/sms';
import type { JobDefinition, JobQueue, RunningJob } from '../../jobs/queue';
import { mailRetryPolicy } from './retry-policy';
import { compareInstants, instant, instantOf } from '../../time';
import {
  AUTH_MAIL_JOB,
  currentSequence,
  DELIVER_JOB,
  loadAppointment,
  queueMessages,
  REMINDER_JOB,
  type DeliverJobData,
  type ReminderJobData,
} from './enqueue';
import { inTransaction } from '../../db/transaction';

export interface NotificationJobDeps {
  db: Db;
  config: Config;
  mailer: Mailer;
  sms: SmsSender;
  /** The queue these jobs run on (reminders queue deliveries). */
  jobs: () => JobQueue;
  /** Called when a retried mail went out (the mail server is back). */
  onRecovered?: () => void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Stores a delivery's outcome, trying again for about half a minute when the database does not
 * answer (a restart, a failover). Once a mail is out, losing its "sent" would send it again.
 */
export async function storeOutcome(write: () => Promise<unknown>, waitsMs = STORE_WAITS_MS) {
  for (let i = 0; ; i++) {
    try {
      await write();
      return;
    } catch (error) {
      if (i >= waitsMs.length) throw error;
      await sleep(waitsMs[i]!);
    }
  }
}
const STORE_WAITS_MS = [250, 500, 1000, 2000, 4000, 8000, 8000, 8000];

const errorText = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).slice(0, 2000);

/**
 * How the delivery workers take jobs: `batchSize` jobs per fetch, sent concurrently, by
 * `concurrency` workers per process; so at most batchSize × concurrency sends are in flight
 * (the SMTP pool, mailer.ts, queues them on its 5 connections).
 */
export const DELIVER_WORK = { batchSize: 10, concurrency: 2 } as const;

// Sign-in mails hold a code or link that counts only while it is valid.
const isSecret = (template: string) => template.startsWith('auth_');

/**
 * Sends one stored message and records the outcome on its row. A temporary failure throws
 * (pg-boss retries the job; `failed` after the last try); a permanent refusal (SMTP 5xx) or an
 * expired sign-in code ends the job at once with the message `failed`. With SMTP, a sign-in
 * mail's body is erased once the try is over for good: codes must not lie in the database.
 */
async function deliverCommunication(
  deps: Pick<NotificationJobDeps, 'db' | 'mailer'> & { sms?: SmsSender; onRecovered?: () => void },
  job: RunningJob<DeliverJobData>,
  now: Date,
) {
  const id = job.data.communicationId;
  const [message] = await deps.db.select().from(communications).where(eq(communications.id, id));
  // Erased with its client, or sent by an earlier try whose completion was lost.
  if (!message) return { skipped: 'gone' };
  if (message.status === 'sent') return { skipped: 'sent' };
  const erase = isSecret(message.template) && deps.mailer.transport === 'smtp' ? { body: '' } : {};
  const record = (set: Partial<typeof communications.$inferInsert>, attempted = true) =>
    deps.db
      .update(communications)
      .set({
        ...(attempted ? { attempts: sql`${communications.attempts} + 1` } : {}),
        updatedAt: sql`now()`,
        ...set,
      })
      .where(eq(communications.id, id));
  if (job.data.notAfter && compareInstants(instant(job.data.notAfter), instantOf(now)) <= 0) {
    await record({ status: 'failed', error: 'expired before it could be sent', ...erase }, false);
    return { failed: 'expired' };
  }
  let delivered: { messageId: string | null };
  try {
    const attachments =
      message.channel === 'email'
        ? await deps.db
            .select({
              filename: communicationAttachments.filename,
              contentType: communicationAttachments.contentType,
              content: communicationAttachments.content,
            })
            .from(communicationAttachments)
            .where(eq(communicationAttachments.communicationId, id))
        : [];
    delivered =
      message.channel === 'email'
        ? await deps.mailer.deliver({
            to: message.recipient,
            subject: message.subject ?? '',
            text: message.body,
            calendar:
              message.calendar && message.calendarMethod
                ? {
                    method: message.calendarMethod as 'REQUEST' | 'CANCEL',
                    content: message.calendar,
                  }
                : undefined,
            attachments,
            id: message.id,
          })
        : await deps.sms!.send({ to: message.recipient, text: message.body });
  } catch (error) {
    if (message.channel === 'email' && isPermanentMailError(error)) {
      await record({ status: 'failed', error: errorText(error), ...erase });
      return { failed: 'refused' };
    }
    const last = job.retryCount >= job.retryLimit;
    await record({
      status: last ? 'failed' : 'queued',
      error: errorText(error),
      ...(last ? erase : {}),
    });
    throw error;
  }
  await storeOutcome(() =>
    record({
      status: 'sent',
      sentAt: now.toISOString(),
      providerMessageId: delivered.messageId,
      error: null,
      ...erase,
    }),
  );
  // A retry went through: the mail server answers again, so what else waits goes now.
  if (job.retryCount > 0 && message.channel === 'email') deps.onRecovered?.();
  return { sent: true };
}

/**
 * Sign-in mails (codes, links) of the authentication provider: stored and delivered like
 * appointment messages, on a queue of their own, so that a backlog of appointment mail never
 * delays a code, the retries fit the code's lifetime, and the stand-alone provider
 * (`npm run start:auth`) works this queue alone.
 */
export function authMailJob(
  deps: Pick<NotificationJobDeps, 'db' | 'mailer' | 'onRecovered'>,
): JobDefinition {
  const definition: JobDefinition<DeliverJobData> = {
    name: AUTH_MAIL_JOB,
    // Tries at about 0, 5, 10, 20, 40 s and then every minute; a code's mail that could not
    // go out before the code expires is given up (notAfter).
    queue: {
      retryLimit: 8,
      retryDelay: 5,
      retryBackoff: true,
      retryDelayMax: 60,
      expireInSeconds: 60,
      notify: true,
      deleteAfterSeconds: 7 * 24 * 60 * 60,
    },
    work: DELIVER_WORK,
    run: (job, { now }) => deliverCommunication(deps, job, now),
  };
  return definition as JobDefinition;
}

/**
 * The jobs behind appointment messages: delivering one stored message (retried with
 * exponential backoff; `failed` after the last try) and the reminders, which re-check the
 * appointment when they come due and send nothing for a cancelled or moved one.
 */
export function notificationJobs(deps: NotificationJobDeps): JobDefinition[] {
  const deliver: JobDefinition<DeliverJobData> = {
    name: DELIVER_JOB,
    queue: {
      // Retried for MAIL_RETRY_HOURS, then `failed` and on the staff's list.
      ...mailRetryPolicy(deps.config),
      retryBackoff: true,
      expireInSeconds: 120,
      // Workers wake when a job is queued (NOTIFY at commit) instead of at the next poll.
      notify: true,
      // Keep finished jobs a month: they are the queue's record of what was tried.
      deleteAfterSeconds: 30 * 24 * 60 * 60,
    },
    work: DELIVER_WORK,
    run: (job, { now }) => deliverCommunication(deps, job, now),
  };

  const reminder: JobDefinition<ReminderJobData> = {
    name: REMINDER_JOB,
    queue: { retryLimit: 3, retryDelay: 60, retryBackoff: true, expireInSeconds: 120 },
    async run(job, { now }) {
      const { appointmentId, sequence, kind } = job.data;
      return inTransaction(deps.db, async (tx) => {
        const row = await loadAppointment(tx, appointmentId);
        if (!row) return { skipped: 'gone' };
        const a = row.appointment;
        if (a.cancelledAt) return { skipped: 'cancelled' };
        if (a.isProvisional) return { skipped: 'provisional' };
        if ((await currentSequence(tx, appointmentId)) !== sequence) return { skipped: 'moved' };
        if (compareInstants(instant(a.startDate), instantOf(now)) <= 0)
          return { skipped: 'started' };
        const queued = await queueMessages(tx, { config: deps.config, jobs: deps.jobs() }, row, {
          kind,
          sequence,
          coachToo: false,
        });
        return { queued };
      });
    },
  };

  return [deliver, reminder, authMailJob(deps)] as JobDefinition[];
}
