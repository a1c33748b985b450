import { eq, sql } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { communications } from '../../db/schema/index';
import type { Mailer } from '../../adapters/mail/mailer';
import type { SmsSender } from '../../adapters/sms/sms';
import type { JobDefinition, JobQueue } from '../../jobs/queue';
import {
  currentSequence,
  DELIVER_JOB,
  loadAppointment,
  queueMessages,
  REMINDER_JOB,
  type DeliverJobData,
  type ReminderJobData,
} from './enqueue';

export interface NotificationJobDeps {
  db: Db;
  config: Config;
  mailer: Mailer;
  sms: SmsSender;
  /** The queue these jobs run on (reminders queue deliveries). */
  jobs: () => JobQueue;
}

const errorText = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).slice(0, 2000);

/**
 * The jobs behind appointment messages: delivering one stored message (retried with
 * exponential backoff; `failed` after the last try) and the reminders, which re-check the
 * appointment when they come due and send nothing for a cancelled or moved one.
 */
export function notificationJobs(deps: NotificationJobDeps): JobDefinition[] {
  const deliver: JobDefinition<DeliverJobData> = {
    name: DELIVER_JOB,
    queue: {
      retryLimit: deps.config.JOBS_RETRY_LIMIT,
      retryDelay: deps.config.JOBS_RETRY_DELAY_SECONDS,
      retryBackoff: true,
      retryDelayMax: 6 * 60 * 60,
      expireInSeconds: 120,
      // Keep finished jobs a month: they are the queue's record of what was tried.
      deleteAfterSeconds: 30 * 24 * 60 * 60,
    },
    async run(job, { now }) {
      const id = job.data.communicationId;
      const [message] = await deps.db.select().from(communications).where(eq(communications.id, id));
      // Erased with its client, or sent by an earlier try whose completion was lost.
      if (!message) return { skipped: 'gone' };
      if (message.status === 'sent') return { skipped: 'sent' };
      try {
        const { messageId } =
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
              })
            : await deps.sms.send({ to: message.recipient, text: message.body });
        await deps.db
          .update(communications)
          .set({
            status: 'sent',
            attempts: sql`${communications.attempts} + 1`,
            sentAt: now.toISOString(),
            providerMessageId: messageId,
            error: null,
            updatedAt: sql`now()`,
          })
          .where(eq(communications.id, id));
        return { sent: true };
      } catch (error) {
        const last = job.retryCount >= job.retryLimit;
        await deps.db
          .update(communications)
          .set({
            status: last ? 'failed' : 'queued',
            attempts: sql`${communications.attempts} + 1`,
            error: errorText(error),
            updatedAt: sql`now()`,
          })
          .where(eq(communications.id, id));
        throw error;
      }
    },
  };

  const reminder: JobDefinition<ReminderJobData> = {
    name: REMINDER_JOB,
    queue: { retryLimit: 3, retryDelay: 60, retryBackoff: true, expireInSeconds: 120 },
    async run(job, { now }) {
      const { appointmentId, sequence, kind } = job.data;
      return deps.db.transaction(async (tx) => {
        const row = await loadAppointment(tx, appointmentId);
        if (!row) return { skipped: 'gone' };
        const a = row.appointment;
        if (a.cancelledAt) return { skipped: 'cancelled' };
        if (a.isProvisional) return { skipped: 'provisional' };
        if ((await currentSequence(tx, appointmentId)) !== sequence) return { skipped: 'moved' };
        if (Date.parse(a.startDate) <= now.getTime()) return { skipped: 'started' };
        const queued = await queueMessages(
          tx,
          { config: deps.config, jobs: deps.jobs() },
          row,
          { kind, sequence, coachToo: false },
        );
        return { queued };
      });
    },
  };

  return [deliver, reminder] as JobDefinition[];
}
