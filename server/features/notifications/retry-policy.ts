import type { Config } from '../../config';

/**
 * The retry schedule of a message: exponential backoff from JOBS_RETRY_DELAY_SECONDS, capped
 * at MAIL_RETRY_DELAY_MAX_SECONDS, with as many tries as it takes for the shortest delays
 * pg-boss can draw (its jitter only lengthens them) to add up to MAIL_RETRY_HOURS. So a
 * message is given up no earlier than that, and a little later at most.
 */
export function mailRetryPolicy(config: Config) {
  const retryDelay = config.JOBS_RETRY_DELAY_SECONDS;
  const retryDelayMax = Math.max(config.MAIL_RETRY_DELAY_MAX_SECONDS, retryDelay);
  const window = config.MAIL_RETRY_HOURS * 3600;
  let retryLimit = 0;
  let total = 0;
  while (total < window) {
    // pg-boss: retry n waits between delay·2^(n-1) and delay·2^n (capped).
    total += Math.min(retryDelayMax, retryDelay * 2 ** Math.min(15, retryLimit));
    retryLimit++;
  }
  return { retryLimit: config.JOBS_RETRY_LIMIT ?? retryLimit, retryDelay, retryDelayMax };
}
