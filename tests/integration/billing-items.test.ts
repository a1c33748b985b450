import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments, billableItems } from '../../server/db/schema/index';
import { BILLABLE_ITEMS_JOB, catchUpBillableItems } from '../../server/features/billing/index';
import type { Api } from '../support/api';
import {
  at,
  expectStatus,
  minutesFromNow,
  newAppointment,
  newClient,
  newCoach,
  startApi,
  type Caller,
} from './fixtures';

let api: Api;
let admin: Caller;
let coachId: string;
const ADDRESS = { street: 'Hauptstr. 1', postalCode: '10115', city: 'Berlin' };

beforeAll(async () => {
  ({
    api,
    callers: [admin],
  } = await startApi({}, 'ADMIN'));
  coachId = (await newCoach(api, admin)).id;
});
afterAll(() => api.close());

const rule = async (body: Record<string, unknown>) => {
  const res = await api.call('POST', '/api/admin/billing-rules', { as: admin, body });
  expectStatus(res, 201);
  return res.body;
};
const itemsOf = (appointmentId: string) =>
  api.database.db
    .select()
    .from(billableItems)
    .where(eq(billableItems.appointmentId, appointmentId));
const runJob = async () => {
  await api.app.jobs.send(api.database.db, BILLABLE_ITEMS_JOB, {});
  await api.app.jobs.runDue();
};
const clock = () => ({ now: new Date(), changeNoticeHours: 24 });
let day = -30;
const book = async (clientId: string, input: Record<string, unknown> = {}) =>
  newAppointment(api, admin, { clientId, coachId, startDate: at(day++, 8), ...input });

describe('items from appointments', () => {
  let noShowRule: any;
  let lateRule: any;
  let followup: any;
  let client: any;

  beforeAll(async () => {
    noShowRule = await rule({
      name: 'Nicht erschienen',
      amountCents: 3000,
      description: 'Ausfall',
      noShow: true,
    });
    lateRule = await rule({
      name: 'Spät abgesagt',
      amountCents: 2500,
      description: 'Absage',
      cancelledLate: true,
    });
    followup = await rule({
      name: 'Folgetermin',
      amountCents: 6500,
      description: 'Folgetermin, 50 Minuten',
      appointmentType: 'followup',
    });
    client = await newClient(api, admin, ADDRESS);
  });

  it('completed, no-show and late-cancelled appointments get an item; future, early-cancelled and unmatched ones do not / fail validation', async () => {
    const done = await book(client.id);
    const noShow = await book(client.id);
    expectStatus(
      await api.call('PUT', `/api/appointment/${noShow.id}`, { as: admin, body: { noShow: true } }),
      200,
    );
    const late = await newAppointment(api, admin, {
      clientId: client.id,
      coachId,
      startDate: minutesFromNow(180),
    });
    expectStatus(await api.call('DELETE', `/api/appointment/${late.id}`, { as: admin }), 200);
    const early = await newAppointment(api, admin, {
      clientId: client.id,
      coachId,
      startDate: at(5, 8),
    });
    expectStatus(await api.call('DELETE', `/api/appointment/${early.id}`, { as: admin }), 200);
    const future = await newAppointment(api, admin, {
      clientId: client.id,
      coachId,
      startDate: at(6, 8),
    });
    const unmatched = await book(client.id, { appointmentType: 'first' });

    await runJob();

    const [d] = await itemsOf(done.id);
    expect(d).toMatchObject({
      status: 'pending',
      occasion: 'completed',
      billingRuleId: followup.id,
      billingRuleVersion: 1,
      amountCents: 6500,
      vatTreatment: 'standard',
      vatRatePercent: 19,
      payerKind: 'client',
      validationErrors: [],
    });
    expect((await itemsOf(noShow.id))[0]).toMatchObject({
      occasion: 'no_show',
      billingRuleId: noShowRule.id,
      amountCents: 3000,
    });
    expect((await itemsOf(late.id))[0]).toMatchObject({
      occasion: 'cancelled_late',
      billingRuleId: lateRule.id,
    });
    expect(await itemsOf(early.id)).toEqual([]);
    expect(await itemsOf(future.id)).toEqual([]);
    const [u] = await itemsOf(unmatched.id);
    expect(u).toMatchObject({ status: 'validation_failed', billingRuleId: null, amountCents: 0 });
    expect(u!.validationErrors.map((e) => e.code)).toEqual(['no_rule']);
    expect(u!.validationErrors[0]!.message).toBe('Keine Abrechnungsregel passt zu diesem Termin.');
  });

  it('runs again without a second item (one live item per appointment)', async () => {
    const a = await book(client.id);
    await catchUpBillableItems(api.database.db, clock());
    const again = await catchUpBillableItems(api.database.db, clock());
    expect(again.created).toBe(0);
    expect(await itemsOf(a.id)).toHaveLength(1);
  });

  it('a client without the data the rule needs, or without the signed contract, fails validation in German', async () => {
    const noAddress = await newClient(api, admin);
    const unsigned = await newClient(api, admin, {
      ...ADDRESS,
      hasNotSignedRequiredContract: true,
    });
    const a = await book(noAddress.id);
    const b = await book(unsigned.id);
    await catchUpBillableItems(api.database.db, clock());
    const [ia] = await itemsOf(a.id);
    expect(ia).toMatchObject({ status: 'validation_failed', billingRuleId: followup.id });
    expect(ia!.validationErrors.map((e) => e.code)).toEqual(['missing_address']);
    const [ib] = await itemsOf(b.id);
    expect(ib!.validationErrors.map((e) => e.code)).toEqual(['contract_not_signed']);
    expect(ib!.validationErrors[0]!.message).toContain('Vertrag nicht unterschrieben');
  });

  it('a rule edit changes no existing item', async () => {
    const a = await book(client.id);
    await catchUpBillableItems(api.database.db, clock());
    expectStatus(
      await api.call('PUT', `/api/admin/billing-rules/${followup.id}`, {
        as: admin,
        body: { amountCents: 9900 },
      }),
      200,
    );
    await catchUpBillableItems(api.database.db, clock());
    expect((await itemsOf(a.id))[0]).toMatchObject({ amountCents: 6500, billingRuleVersion: 1 });
    const b = await book(client.id);
    await catchUpBillableItems(api.database.db, clock());
    expect((await itemsOf(b.id))[0]).toMatchObject({ amountCents: 9900, billingRuleVersion: 2 });
  });

  it('taking back a no-show updates the item; moving the appointment ahead cancels it, and it comes back when over', async () => {
    const past = await book(client.id);
    expectStatus(
      await api.call('PUT', `/api/appointment/${past.id}`, { as: admin, body: { noShow: true } }),
      200,
    );
    await catchUpBillableItems(api.database.db, clock());
    expect((await itemsOf(past.id))[0]).toMatchObject({ occasion: 'no_show', amountCents: 3000 });
    expectStatus(
      await api.call('PUT', `/api/appointment/${past.id}`, { as: admin, body: { noShow: false } }),
      200,
    );
    await catchUpBillableItems(api.database.db, clock());
    const [updated] = await itemsOf(past.id);
    expect(updated).toMatchObject({
      occasion: 'completed',
      billingRuleId: followup.id,
      status: 'pending',
    });

    const soon = await newAppointment(api, admin, {
      clientId: client.id,
      coachId,
      startDate: at(7, 8),
    });
    // A no-show on an appointment ahead: the API marks one only after the start, so the row is
    // set as an older record would have it; taking it back goes through the API.
    await api.database.db
      .update(appointments)
      .set({ noShow: true })
      .where(eq(appointments.id, soon.id));
    await catchUpBillableItems(api.database.db, clock());
    expect(await itemsOf(soon.id)).toHaveLength(1);
    expectStatus(
      await api.call('PUT', `/api/appointment/${soon.id}`, { as: admin, body: { noShow: false } }),
      200,
    );
    await catchUpBillableItems(api.database.db, clock());
    const [cancelled] = await itemsOf(soon.id);
    expect(cancelled).toMatchObject({ status: 'cancelled', cancelledBySystem: true });
    // Once it is over, the job bills it again (a new item; the cancelled one stays as history).
    const later = new Date(Date.parse(at(8, 8)));
    await catchUpBillableItems(api.database.db, { now: later, changeNoticeHours: 24 });
    const all = await itemsOf(soon.id);
    expect(all.map((i) => i.status).sort()).toEqual(['cancelled', 'pending']);
  });

  it('a backlog of several batches is worked through in one run, each batch after the last', async () => {
    const backlog = [await book(client.id), await book(client.id), await book(client.id)];
    // Batches of one: the run goes on from where each batch stopped, not from the oldest.
    const run = await catchUpBillableItems(api.database.db, clock(), 1);
    expect(run.created).toBeGreaterThanOrEqual(3);
    for (const a of backlog) expect(await itemsOf(a.id)).toHaveLength(1);
  });

  it('after a run that emptied the backlog, looks only at appointments ended or changed since (less two days)', async () => {
    await catchUpBillableItems(api.database.db, clock());
    const old = await book(client.id);
    // As if it had been written before the last drained run and never touched since.
    await api.database.db
      .update(appointments)
      .set({ updatedAt: new Date(Date.now() - 10 * 86_400_000).toISOString() })
      .where(eq(appointments.id, old.id));
    await catchUpBillableItems(api.database.db, clock());
    expect(await itemsOf(old.id)).toHaveLength(0);
    // A change (here: the no-show mark) brings it into view.
    expectStatus(
      await api.call('PUT', `/api/appointment/${old.id}`, { as: admin, body: { noShow: true } }),
      200,
    );
    await catchUpBillableItems(api.database.db, clock());
    expect(await itemsOf(old.id)).toHaveLength(1);
  });
});
