import type { Clock } from 'pg-boss';
import { practiceName } from './features/practice/index';
import type { Config } from './config';
import type { Db } from './db/client';
import { createMailer, type Mailer } from './adapters/mail/mailer';
import { createSmsSender, type SmsSender } from './adapters/sms/sms';
import { appointmentJobs } from './features/appointments/index';
import { billingJobs } from './features/billing/index';
import { calendarJobs } from './features/calendars/index';
import { invoiceJobs } from './features/invoices/index';
import { mailRecovery, notificationJobs } from './features/notifications/index';
import { webhookJobs } from './features/webhooks/index';
import { mailingListJobs } from './features/mailing-list/index';
import { retentionJobs } from './features/retention/index';
import { startJobQueue, type JobQueue } from './jobs/queue';
import { countedMailer, countedSms } from './metrics/outcomes';

export interface AppJobsOptions {
  db: Db;
  config: Config;
  /** Default: JOBS_WORKERS, which is on except in tests. */
  workers?: boolean;
  clock?: Clock;
  /**
   * The app's clock (deps.now): times a job writes into the app's rows (a calendar's last
   * sync) come from it, so they agree with what requests compute. Default the queue's clock.
   */
  now?: () => Date;
  mailer?: Mailer;
  sms?: SmsSender;
  onError?: (error: unknown, context: string) => void;
}

/**
 * Every background job of the app, on one pg-boss queue in the app's database. The features
 * bring their job definitions; they are put together here, where the app is assembled, so
 * that server/jobs stays infrastructure that knows no feature.
 */
export async function startAppJobs(options: AppJobsOptions): Promise<JobQueue> {
  const { db, config } = options;
  // Every send is counted for /metrics (sent, failed, refused).
  const mailer = countedMailer(
    options.mailer ??
      createMailer({
        db,
        from: config.MAIL_FROM,
        senderName: () => practiceName(db, config),
        smtpUrl: config.SMTP_URL,
      }),
  );
  const sms = countedSms(
    options.sms ??
      createSmsSender({ url: config.SMS_URL, token: config.SMS_TOKEN, from: config.SMS_FROM }),
  );
  // Jobs that queue further jobs reach the queue through this, once it has started.
  const started: { queue?: JobQueue } = {};
  const jobs = () => {
    if (!started.queue) throw new Error('The job queue is not started');
    return started.queue;
  };

  const recovery = mailRecovery({
    mailer,
    jobs,
    ...(options.onError ? { onError: options.onError } : {}),
  });
  const appointmentWork = appointmentJobs(db);
  const billingWork = billingJobs(db, config);
  const retentionWork = retentionJobs(db);
  const calendarWork = calendarJobs({
    db,
    config,
    jobs,
    ...(options.now ? { now: options.now } : {}),
  });

  const workers = options.workers ?? config.JOBS_WORKERS ?? config.NODE_ENV !== 'test';
  const queue = await startJobQueue({
    db,
    workers,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.onError ? { onError: options.onError } : {}),
    definitions: [
      ...notificationJobs({
        db,
        config,
        mailer,
        sms,
        jobs,
        onRecovered: () => recovery.recovered(),
      }),
      ...appointmentWork.definitions,
      ...billingWork.definitions,
      ...webhookJobs({ db, config, mailer, jobs }),
      ...mailingListJobs({ db, config, jobs }),
      ...invoiceJobs({ db, config }),
      ...retentionWork.definitions,
      ...calendarWork.definitions,
    ],
    periodic: [
      ...appointmentWork.periodic,
      ...billingWork.periodic,
      ...retentionWork.periodic,
      ...calendarWork.periodic,
    ],
  });
  // Where mail is sent, the mail server is probed while mails wait for a retry.
  const stopProbe = workers ? recovery.start(config.MAIL_PROBE_SECONDS) : () => {};
  started.queue = {
    ...queue,
    async stop() {
      stopProbe();
      await queue.stop();
    },
  };
  return started.queue;
}
