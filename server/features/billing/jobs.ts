import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { JobDefinition, PeriodicJob } from '../../jobs/queue';
import { syncBillableItems, type CandidateCursor, type ItemClock } from './items';

export const BILLABLE_ITEMS_JOB = 'sync-billable-items';
/** Appointments per transaction, and transactions per run: a backlog drains in steps. */
const BATCH = 500;
const MAX_BATCHES_PER_RUN = 20;

/**
 * Creates and refreshes items until no full batch is left (or the run's share is used up;
 * the next minute goes on). After downtime the backlog is simply more candidates: every
 * appointment whose end passed, marked no-show or cancelled late without an item.
 */
export async function catchUpBillableItems(db: Db, clock: ItemClock, batch = BATCH) {
  const total = { created: 0, updated: 0, cancelled: 0 };
  let after: CandidateCursor | undefined;
  for (let i = 0; i < MAX_BATCHES_PER_RUN; i++) {
    const step = await syncBillableItems(db, clock, batch, after);
    total.created += step.created;
    total.updated += step.updated;
    total.cancelled += step.cancelled;
    if (step.candidates < batch && step.updated + step.cancelled < batch) {
      // The walk reached the end: one more batch from the start records the watermark (and
      // picks up what was locked by someone else meanwhile).
      if (after) await syncBillableItems(db, clock, batch);
      break;
    }
    after = step.last;
  }
  return total;
}

/** The billing feature's background work: items from appointments, every minute. */
export function billingJobs(
  db: Db,
  config: Pick<Config, 'CLIENT_CHANGE_NOTICE_HOURS'>,
): { definitions: JobDefinition[]; periodic: PeriodicJob[] } {
  const sync: JobDefinition<null> = {
    name: BILLABLE_ITEMS_JOB,
    // A missed run is made up by the next minute's; no retries pile up.
    queue: { retryLimit: 0, expireInSeconds: 300 },
    run: (_job, { now }) =>
      catchUpBillableItems(db, { now, changeNoticeHours: config.CLIENT_CHANGE_NOTICE_HOURS }),
  };
  return {
    definitions: [sync as JobDefinition],
    periodic: [{ name: BILLABLE_ITEMS_JOB, cron: '* * * * *' }],
  };
}
