import type { Mailer } from '../../adapters/mail/mailer';
import type { JobQueue } from '../../jobs/queue';
import { AUTH_MAIL_JOB, DELIVER_JOB } from './enqueue';

const MAIL_QUEUES = [DELIVER_JOB, AUTH_MAIL_JOB];

export interface MailRecovery {
  /** A retried mail went out: the server is back, the others need not wait (at most every 2 s). */
  recovered(): void;
  /**
   * One probe: when mails wait for a retry and the mail server answers, their next try is
   * now. Answers how many were brought forward.
   */
  probe(): Promise<number>;
  /** Probes every `seconds` until the returned function is called. */
  start(seconds: number): () => void;
}

/**
 * Sends what waited as soon as the mail server answers again, instead of at each message's
 * next retry: after a long outage that would be up to MAIL_RETRY_DELAY_MAX_SECONDS later.
 */
export function mailRecovery(deps: {
  mailer: Pick<Mailer, 'probe'>;
  jobs: () => JobQueue;
  onError?: (error: unknown, context: string) => void;
}): MailRecovery {
  const onError = deps.onError ?? (() => {});
  let lastPull = 0;
  const pull = async () => {
    let moved = 0;
    for (const name of MAIL_QUEUES) moved += await deps.jobs().retryNow(name);
    return moved;
  };
  const probe = async () => {
    let waiting = 0;
    for (const name of MAIL_QUEUES) waiting += await deps.jobs().retrying(name);
    if (waiting === 0 || !(await deps.mailer.probe())) return 0;
    return pull();
  };
  return {
    recovered() {
      if (Date.now() - lastPull < 2_000) return;
      lastPull = Date.now();
      pull().catch((error: unknown) => onError(error, 'mail recovery'));
    },
    probe,
    start(seconds) {
      let running = false;
      const timer = setInterval(() => {
        if (running) return;
        running = true;
        probe()
          .catch((error: unknown) => onError(error, 'mail probe'))
          .finally(() => {
            running = false;
          });
      }, seconds * 1000);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
}
