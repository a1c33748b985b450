import { eq, sql } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { billableItems, invoiceRuns } from '../../db/schema/index';
import type { JobDefinition, JobQueue } from '../../jobs/queue';
import { inTransaction } from '../../db/transaction';
import { dueItemsOf, previewInvoiceRun, refuseMissing, runInvoices, type RunRequest } from './run';

/**
 * Large invoice runs as a background job. POST /invoices/runs answers at once up to
 * INVOICE_RUN_SYNC_LIMIT payers (one invoice each); above it queues this job and answers 202
 * with the run's id. The job issues in steps of at most that many invoices, each its own
 * transaction under the same run lock and number allocation as a direct run (numbers stay
 * gapless: a step's numbers are allocated and committed together), and records its progress
 * in the step's transaction, so GET /invoices/runs/{id} never counts an invoice that is not there.
 */
export const INVOICE_RUN_JOB = 'invoices.run';

export type InvoiceRunRow = typeof invoiceRuns.$inferSelect;

/** Queues a run when it is large; null when it is small enough to run at once. */
export async function queueLargeRun(
  db: Db,
  deps: { jobs: JobQueue; config: Config },
  actorUserId: string | null,
  request: RunRequest,
): Promise<InvoiceRunRow | null> {
  const preview = await previewInvoiceRun(db, request);
  if (preview.payerCount <= deps.config.INVOICE_RUN_SYNC_LIMIT) return null;
  return inTransaction(db, async (tx) => {
    if (request.itemIds) {
      // Named ids are checked now, as a direct run would: a refused run queues nothing.
      const found = await tx
        .select({ id: billableItems.id })
        .from(billableItems)
        .where(dueItemsOf(request));
      refuseMissing(request.itemIds, found);
    }
    const [row] = await tx
      .insert(invoiceRuns)
      .values({
        request: JSON.parse(JSON.stringify(request)) as RunRequest & object,
        payerCount: preview.payerCount,
        dueItemCount: preview.itemCount,
        requestedById: actorUserId,
      })
      .returning();
    await deps.jobs.send(tx, INVOICE_RUN_JOB, { runId: row!.id });
    return row!;
  });
}

export async function runInvoiceRunJob(db: Db, config: Config, runId: string, now: () => Date) {
  const [run] = await db.select().from(invoiceRuns).where(eq(invoiceRuns.id, runId));
  if (!run || run.status === 'done' || run.status === 'failed') return;
  await db.update(invoiceRuns).set({ status: 'running' }).where(eq(invoiceRuns.id, runId));
  const step = config.INVOICE_RUN_SYNC_LIMIT;
  try {
    for (;;) {
      const result = await runInvoices(db, run.requestedById, config, now(), run.request, {
        maxInvoices: step,
        onIssued: async (tx, issued, itemCount) => {
          await tx
            .update(invoiceRuns)
            .set({
              itemCount: sql`${invoiceRuns.itemCount} + ${itemCount}`,
              invoiceIds: sql`${invoiceRuns.invoiceIds} || ${JSON.stringify(issued.map((i) => i.id))}::jsonb`,
            })
            .where(eq(invoiceRuns.id, runId));
        },
      });
      if (result.invoices.length < step) break;
    }
    await db
      .update(invoiceRuns)
      .set({ status: 'done', finishedAt: now().toISOString() })
      .where(eq(invoiceRuns.id, runId));
  } catch (error) {
    // What was issued stays issued (and counted); the rest stays due for the next run.
    await db
      .update(invoiceRuns)
      .set({
        status: 'failed',
        error: 'Interner Fehler beim Rechnungslauf',
        finishedAt: now().toISOString(),
      })
      .where(eq(invoiceRuns.id, runId));
    throw error;
  }
}

export function invoiceJobs(deps: { db: Db; config: Config }): JobDefinition[] {
  const definition: JobDefinition<{ runId: string }> = {
    name: INVOICE_RUN_JOB,
    // The run records its own failure and what it issued; the rest is taken by the next run.
    queue: { retryLimit: 0, expireInSeconds: 60 * 60 },
    run: (job, context) =>
      runInvoiceRunJob(deps.db, deps.config, job.data.runId, () => context.now),
  };
  return [definition as JobDefinition];
}
