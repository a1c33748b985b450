import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLABLE_ITEM_STATUSES } from '../../shared/contract/enums';
import { billableItems } from '../../server/db/schema/index';
import type { Api } from '../support/api';
import { ADDRESS, itemMaker, makeRule } from './billing-support';
import { expectStatus, newClient, newCoach, startApi, type Caller } from './fixtures';

let api: Api;
let admin: Caller;
let coachId: string;
const ids: string[] = [];

beforeAll(async () => {
  ({
    api,
    callers: [admin],
  } = await startApi({}, 'ADMIN'));
  const item = itemMaker(api, admin);
  coachId = (await newCoach(api, admin)).id;
  const otherCoachId = (await newCoach(api, admin)).id;
  await makeRule(api, admin, { name: 'Alles', amountCents: 4200, description: 'Termin' });
  const client = await newClient(api, admin, ADDRESS);
  for (let i = 0; i < 12; i++) ids.push(await item(client.id, i % 3 ? coachId : otherCoachId));
});
afterAll(() => api.close());

const put = (path: string, body: string[]) =>
  api.call(path.startsWith('delete') ? 'DELETE' : 'PUT', `/api/billable-items/batch-${path}`, {
    as: admin,
    body: { ids: body },
  });

/** What a GROUP BY over the items says, per status, under an optional coach. */
async function counted(coach?: string) {
  const rows = await api.database.db
    .select({
      status: billableItems.status,
      count: sql<number>`count(*)::int`,
      amountCents: sql<string>`coalesce(sum(${billableItems.amountCents}), 0)`,
    })
    .from(billableItems)
    .where(coach ? eq(billableItems.coachId, coach) : undefined)
    .groupBy(billableItems.status);
  return Object.fromEntries(
    BILLABLE_ITEM_STATUSES.map((s) => {
      const r = rows.find((x) => x.status === s);
      return [s, { count: r?.count ?? 0, amountCents: Number(r?.amountCents ?? 0) }];
    }),
  );
}

async function expectTotalsExact() {
  for (const coach of [undefined, coachId]) {
    const query: Record<string, string> = coach ? { coachId: coach } : {};
    const res = await api.call('GET', '/api/billable-items', { as: admin, query });
    expectStatus(res, 200);
    expect(res.body.statusTotals).toEqual(await counted(coach));
  }
}

describe('billable item totals', () => {
  it('stay exact under concurrent, overlapping batches, unfiltered and filtered', async () => {
    await expectTotalsExact(); // remembers the coach's totals under today's generation
    const answers = await Promise.all([
      put('approve', ids.slice(0, 6)),
      put('cancel', ids.slice(4, 9)),
      put('delete', ids.slice(9, 11)),
      put('approve', ids.slice(8, 12)),
    ]);
    expect(answers.some((a) => a.status === 200)).toBe(true);
    await expectTotalsExact();
    const invoiced = await Promise.all([
      put('mark-invoice-sent', ids.slice(0, 3)),
      put('cancel', ids.slice(2, 5)),
      put('uncancel', ids.slice(6, 8)),
    ]);
    expect(invoiced.some((a) => a.status === 200)).toBe(true);
    await expectTotalsExact();
  });
});
