import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billableItems, clients, coaches } from '../../server/db/schema/index';
import type { Api } from '../support/api';
import { ADDRESS, itemMaker, makeRule } from './billing-support';
import {
  expectFieldError,
  expectProblem,
  expectStatus,
  ids,
  newClient,
  newCoach,
  startApi,
  type Caller,
} from './fixtures';

let api: Api;
let admin: Caller;
let manager: Caller;
let coach: Caller;
const made = {} as {
  mine: string[];
  coached: string[];
  others: string[];
  coachId: string;
  otherCoachId: string;
};

beforeAll(async () => {
  ({
    api,
    callers: [admin, manager],
  } = await startApi({}, 'ADMIN', 'ONBOARDING_MANAGER'));
  const item = itemMaker(api, admin);
  made.coachId = (await newCoach(api, admin)).id;
  made.otherCoachId = (await newCoach(api, admin)).id;
  coach = await api.signIn('COACH', { coachId: made.coachId });
  await makeRule(api, admin, { name: 'Alles', amountCents: 5000, description: 'Termin' });
  const own = await newClient(api, admin, { ...ADDRESS, coachedById: made.coachId, insurer: 'TK' });
  const coachedElsewhere = await newClient(api, admin, { ...ADDRESS, coachedById: made.coachId });
  const foreign = await newClient(api, admin, ADDRESS);
  // The coach's own appointments, an appointment of a client they coach held by another
  // coach, and items of neither.
  made.mine = [await item(own.id, made.coachId), await item(own.id, made.coachId, 'approved')];
  made.coached = [await item(coachedElsewhere.id, made.otherCoachId, 'validation_failed')];
  made.others = [
    await item(foreign.id, made.otherCoachId),
    await item(foreign.id, made.otherCoachId, 'cancelled'),
  ];
});
afterAll(() => api.close());

const list = (as: Caller, query: Record<string, string | number> = {}) =>
  api.call('GET', '/api/billable-items', { as, query: { limit: 50, ...query } });

describe('GET /billable-items', () => {
  it('admins see all, newest service date first, with totals per status and the sum', async () => {
    const res = await list(admin);
    expectStatus(res, 200);
    const all = [...made.mine, ...made.coached, ...made.others];
    expect(ids(res.body.billableItems).sort()).toEqual([...all].sort());
    const dates = res.body.billableItems.map((i: any) => i.serviceDate);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(res.body.itemCount).toBe(5);
    expect(res.body.amountCentsTotal).toBe(25_000);
    expect(res.body.statusTotals).toEqual({
      pending: { count: 2, amountCents: 10_000 },
      validation_failed: { count: 1, amountCents: 5_000 },
      approved: { count: 1, amountCents: 5_000 },
      invoice_sent: { count: 0, amountCents: 0 },
      cancelled: { count: 1, amountCents: 5_000 },
    });
  });

  it('the status filter narrows the page and the sum, the tab totals keep the other statuses', async () => {
    const res = await list(admin, { status: 'pending' });
    expect(res.body.itemCount).toBe(2);
    expect(res.body.amountCentsTotal).toBe(10_000);
    expect(res.body.statusTotals.cancelled.count).toBe(1);
  });

  it('filters by coach, client, insurer, payer and service-date range; pages', async () => {
    expect(ids((await list(admin, { coachId: made.coachId })).body.billableItems).sort()).toEqual(
      [...made.mine].sort(),
    );
    expect((await list(admin, { insurer: 'TK' })).body.itemCount).toBe(2);
    expect((await list(admin, { payerKind: 'sponsor' })).body.itemCount).toBe(0);
    expect((await list(admin, { payerKind: 'client' })).body.itemCount).toBe(5);
    const all = (await list(admin)).body.billableItems;
    const newest = all[0].serviceDate;
    expect((await list(admin, { fromDate: newest, toDate: newest })).body.itemCount).toBe(1);
    const page2 = await list(admin, { limit: 2, page: 2 });
    expect(ids(page2.body.billableItems)).toEqual(ids(all.slice(2, 4)));
    expectFieldError(await list(admin, { fromDate: 'yesterday' }), 'fromDate');
    expectFieldError(await list(admin, { status: 'paid' }), 'status');
  });

  it('onboarding managers see all, read-only', async () => {
    expect((await list(manager)).body.itemCount).toBe(5);
    expectProblem(
      await api.call('PUT', '/api/billable-items/batch-approve', {
        as: manager,
        body: { ids: made.mine },
      }),
      403,
    );
  });

  it('a coach sees only the items of their appointments and clients, and cannot act', async () => {
    const res = await list(coach);
    expect(ids(res.body.billableItems).sort()).toEqual([...made.mine, ...made.coached].sort());
    expect(res.body.itemCount).toBe(3);
    expect((await list(coach, { coachId: made.otherCoachId })).body.itemCount).toBe(1);
    for (const [method, path] of [
      ['PUT', '/api/billable-items/batch-approve'],
      ['PUT', '/api/billable-items/batch-cancel'],
      ['DELETE', '/api/billable-items/batch-delete'],
    ] as const) {
      expectProblem(await api.call(method, path, { as: coach, body: { ids: made.mine } }), 403);
    }
    expectProblem(
      await api.call('PUT', `/api/billable-items/${made.mine[0]}/mark-approved`, { as: coach }),
      403,
    );
    const after = await list(admin, { coachId: made.coachId, status: 'pending' });
    expect(after.body.itemCount).toBe(1);
  });
});

describe('GET /billable-items/selection', () => {
  const selection = (as: Caller, query: Record<string, string> = {}) =>
    api.call('GET', '/api/billable-items/selection', { as, query });

  it('names id, status and amount of every item under the filters, in the list order, within the scope', async () => {
    const all = await selection(admin);
    expectStatus(all, 200);
    const listed = (await list(admin)).body.billableItems;
    expect(all.body).toEqual({
      items: listed.map((i: any) => ({ id: i.id, status: i.status, amountCents: i.amountCents })),
      itemCount: 5,
      capped: false,
    });
    const pending = await selection(admin, { status: 'pending', coachId: made.coachId });
    expect(pending.body.items).toEqual([
      { id: made.mine[0], status: 'pending', amountCents: 5000 },
    ]);
    expect(ids((await selection(coach)).body.items).sort()).toEqual(
      [...made.mine, ...made.coached].sort(),
    );
    expectFieldError(await selection(admin, { toDate: 'morgen' }), 'toDate');
  });
});

describe('an item as the list writes it', () => {
  it('each item reads as stored: every field, the names (also after a rename), instants as the API writes them', async () => {
    const one = await api.call('PUT', `/api/billable-items/${made.mine[0]}/mark-approved`, {
      as: admin,
    });
    expectStatus(one, 200);
    const listed = (await list(admin)).body.billableItems.find((i: any) => i.id === made.mine[0]);
    const { db } = api.database;
    const [row] = await db.select().from(billableItems).where(eq(billableItems.id, made.mine[0]!));
    const [who] = await db.select().from(clients).where(eq(clients.id, row!.clientId));
    const [by] = await db.select().from(coaches).where(eq(coaches.id, row!.coachId));
    expect(row!.approvedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(listed).toEqual({
      id: row!.id,
      appointmentId: row!.appointmentId,
      clientId: row!.clientId,
      coachId: row!.coachId,
      client: { id: who!.id, firstName: who!.firstName, lastName: who!.lastName },
      coach: { id: by!.id, firstName: by!.firstName, lastName: by!.lastName },
      appointmentType: row!.appointmentType,
      occasion: row!.occasion,
      billingRuleId: row!.billingRuleId,
      billingRuleVersion: row!.billingRuleVersion,
      description: row!.description,
      amountCents: row!.amountCents,
      currency: 'EUR',
      vatTreatment: row!.vatTreatment,
      vatRatePercent: row!.vatRatePercent,
      vatExemptionReason: row!.vatExemptionReason,
      payerKind: row!.payerKind,
      insurer: row!.insurer,
      serviceDate: row!.serviceDate,
      status: 'approved',
      validationErrors: row!.validationErrors,
      approvedAt: row!.approvedAt,
      invoiceSentAt: null,
      cancelledAt: null,
      createdAt: row!.createdAt,
      updatedAt: row!.updatedAt,
    });
    // The action's answer is the same mapping.
    expect(one.body).toEqual(listed);
    // A new name reaches the items' bodies.
    // Names beyond ASCII (and beyond U+FFFF) come back as written; the answer itself is
    // ASCII, every other character a JSON escape (migration 0026).
    const lastName = 'Yılmaz-Özdemir 😀';
    await db.update(clients).set({ lastName }).where(eq(clients.id, row!.clientId));
    await db.update(coaches).set({ firstName: 'Zoë' }).where(eq(coaches.id, row!.coachId));
    const renamed = (await list(admin)).body.billableItems.filter(
      (i: any) => i.client.id === row!.clientId,
    );
    expect(renamed.length).toBeGreaterThan(0);
    for (const i of renamed) expect(i.client.lastName).toBe(lastName);
    const byCoach = (await list(admin, { coachId: row!.coachId })).body.billableItems;
    expect(byCoach.map((i: any) => i.coach.firstName)).toEqual(byCoach.map(() => 'Zoë'));
    const raw = await api.app.inject({
      method: 'GET',
      url: `/api/billable-items?clientId=${row!.clientId}`,
      headers: { authorization: admin.authorization },
    });
    expect(raw.body).toContain('Y\\u0131lmaz-\\u00d6zdemir \\ud83d\\ude00');
    expect(raw.body).toMatch(/^[\x20-\x7e]*$/);
  });
});
