import type { Db } from '../../db/client';
import type { JobDefinition, PeriodicJob } from '../../jobs/queue';
import { releaseExpiredHolds } from './client-booking';

export const RELEASE_HOLDS_JOB = 'release-expired-holds';

/** The appointments' background work: releasing expired provisional holds every minute. */
export function appointmentJobs(db: Db): { definitions: JobDefinition[]; periodic: PeriodicJob[] } {
  const releaseHolds: JobDefinition<null> = {
    name: RELEASE_HOLDS_JOB,
    // A missed run is made up by the next minute's; no retries pile up.
    queue: { retryLimit: 0, expireInSeconds: 60 },
    async run(_job, { now }) {
      const released = await releaseExpiredHolds(db, now);
      return { released: released.length };
    },
  };
  return {
    definitions: [releaseHolds as JobDefinition],
    periodic: [{ name: RELEASE_HOLDS_JOB, cron: '* * * * *' }],
  };
}
