import type { Db } from '../../db/client';
import type { JobDefinition, PeriodicJob } from '../../jobs/queue';
import { recordEvent } from '../events/index';
import { applyRetention } from './rules';

export const RETENTION_JOB = 'retention';

/**
 * Deletes what is past its retention term, once a night (02:30 UTC, before the practice
 * opens). What was deleted is recorded as one event of counts per kind: no ids, no names.
 */
export function retentionJobs(db: Db): { definitions: JobDefinition[]; periodic: PeriodicJob[] } {
  const retention: JobDefinition<null> = {
    name: RETENTION_JOB,
    // A failed night is made up by the next one; the job picks up where it stopped.
    queue: { retryLimit: 2, retryDelay: 600, expireInSeconds: 3600 },
    async run(_job, { now }) {
      const deleted = await applyRetention(db, now);
      const total = Object.values(deleted).reduce((a, b) => a + b, 0);
      if (total > 0) {
        await recordEvent(db, {
          type: 'retention.deleted',
          source: 'system',
          entityType: 'retention',
          changes: { deleted, at: now.toISOString() },
        });
      }
      return { deleted: total };
    },
  };
  return {
    definitions: [retention as JobDefinition],
    periodic: [{ name: RETENTION_JOB, cron: '30 2 * * *' }],
  };
}
