import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  billableItems,
  invoiceNumberCounters,
  invoiceRuns,
  invoices,
} from '../../server/db/schema/index';
import type { Api } from '../support/api';
import { ADDRESS, itemMaker, makeRule } from './billing-support';
import {
  expectProblem,
  expectStatus,
  newClient,
  newCoach,
  startApi,
  type Caller,
} from './fixtures';

/**
 * Large invoice runs go to the background job (INVOICE_RUN_SYNC_LIMIT, here 2 payers): 202 with
 * the run's id, progress and result at GET /invoices/runs/{id}, numbers still gapless.
 */
let api: Api;
let admin: Caller;
let coach: Caller;
let item: ReturnType<typeof itemMaker>;
let coachId: string;
const year = Number(
  new Intl.DateTimeFormat('en', { timeZone: 'Europe/Berlin', year: 'numeric' }).format(new Date()),
);

beforeAll(async () => {
  ({
    api,
    callers: [admin, coach],
  } = await startApi({ env: { INVOICE_RUN_SYNC_LIMIT: '2' } }, 'ADMIN', 'COACH'));
  item = itemMaker(api, admin);
  coachId = (await newCoach(api, admin)).id;
  await makeRule(api, admin, {
    name: 'Alles',
    amountCents: 11900,
    description: 'Coaching-Folgetermin',
  });
}, 240_000);
afterAll(() => api?.close());

const db = () => api.database.db;
const run = (body: Record<string, unknown>) =>
  api.call('POST', '/api/invoices/runs', { as: admin, body });
const getRun = (id: string, as: Caller = admin) =>
  api.call('GET', `/api/invoices/runs/${id}`, { as });

async function approvedItems(payers: number) {
  const ids: string[] = [];
  for (let i = 0; i < payers; i++)
    ids.push(await item((await newClient(api, admin, ADDRESS)).id, coachId, 'approved'));
  return ids;
}

describe('invoice runs above the limit as a background job', () => {
  it('answers 202 with the run, issues in steps under the job and shows progress and result', async () => {
    const ids = await approvedItems(5);
    const queued = await run({});
    expectStatus(queued, 202);
    expect(queued.body).toMatchObject({
      status: 'queued',
      payerCount: 5,
      dueItemCount: 5,
      itemCount: 0,
      invoiceCount: 0,
      invoices: [],
      finishedAt: null,
    });
    // Nothing is issued before the job runs.
    expect(await db().select().from(invoices)).toEqual([]);
    const waiting = await getRun(queued.body.id);
    expectStatus(waiting, 200);
    expect(waiting.body.status).toBe('queued');

    await api.app.jobs.runDue();
    const done = await getRun(queued.body.id);
    expectStatus(done, 200);
    expect(done.body).toMatchObject({
      status: 'done',
      payerCount: 5,
      itemCount: 5,
      invoiceCount: 5,
      error: null,
    });
    expect(done.body.finishedAt).toEqual(expect.any(String));
    const numbers = done.body.invoices.map((i: { number: string }) => Number(i.number.slice(5)));
    expect(numbers).toEqual([1, 2, 3, 4, 5]);
    const [counter] = await db()
      .select()
      .from(invoiceNumberCounters)
      .where(eq(invoiceNumberCounters.year, year));
    expect(counter!.lastNumber).toBe(5);
    // Every item is on exactly one invoice; nothing is due any more.
    expect(
      (await api.call('GET', '/api/invoices/runs/preview', { as: admin })).body.itemCount,
    ).toBe(0);
    const items = await db().select({ id: billableItems.id }).from(billableItems);
    expect(items.map((i) => i.id).sort()).toEqual([...ids].sort());
  });

  it('runs a small run at once (201) and numbers on from the job’s invoices', async () => {
    await approvedItems(2);
    const res = await run({});
    expectStatus(res, 201);
    expect(
      res.body.invoices.map((i: { number: string }) => Number(i.number.slice(5))).sort(),
    ).toEqual([6, 7]);
    expect(await db().select().from(invoiceRuns)).toHaveLength(1);
  });

  it('refuses a large run with an id that cannot be invoiced before queueing it', async () => {
    const ids = await approvedItems(3);
    const before = await db().select().from(invoiceRuns);
    expectProblem(
      await run({ itemIds: [...ids, '6f1c2d3e-4b5a-4c6d-8e7f-001122334455'] }),
      409,
      'batch_refused',
    );
    expect(await db().select().from(invoiceRuns)).toHaveLength(before.length);
    const queued = await run({ itemIds: ids });
    expectStatus(queued, 202);
    await api.app.jobs.runDue();
    expect((await getRun(queued.body.id)).body).toMatchObject({
      status: 'done',
      invoiceCount: 3,
      itemCount: 3,
    });
  });

  it('answers 404 for an unknown run and 403 to coaches', async () => {
    expectStatus(await getRun('6f1c2d3e-4b5a-4c6d-8e7f-001122334455'), 404);
    const [someRun] = await db().select().from(invoiceRuns).limit(1);
    expectStatus(await getRun(someRun!.id, coach), 403);
  });
});
