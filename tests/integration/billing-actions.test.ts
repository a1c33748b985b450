import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BILLING_ACTIONS,
  canApplyBillingAction,
  type BillingAction,
} from '../../shared/billing-transitions';
import { BILLABLE_ITEM_STATUSES } from '../../shared/contract/enums';
import { catchUpBillableItems } from '../../server/features/billing/index';
import type { Api } from '../support/api';
import { ADDRESS, eventsOf, itemMaker, makeRule, statusesOf } from './billing-support';
import {
  expectFieldError,
  expectProblem,
  expectStatus,
  newClient,
  newCoach,
  startApi,
  SOME_ID,
  type Caller,
} from './fixtures';

let api: Api;
let admin: Caller;
let item: ReturnType<typeof itemMaker>;
let clientId: string;
let coachId: string;

const ENDPOINT: Record<BillingAction, [string, string]> = {
  approve: ['PUT', '/api/billable-items/batch-approve'],
  cancel: ['PUT', '/api/billable-items/batch-cancel'],
  uncancel: ['PUT', '/api/billable-items/batch-uncancel'],
  markInvoiceSent: ['PUT', '/api/billable-items/batch-mark-invoice-sent'],
  removeValidation: ['PUT', '/api/billable-items/batch-remove-validation'],
  delete: ['DELETE', '/api/billable-items/batch-delete'],
};
const TARGET: Record<BillingAction, string | undefined> = {
  approve: 'approved',
  cancel: 'cancelled',
  uncancel: 'pending',
  markInvoiceSent: 'invoice_sent',
  removeValidation: 'pending',
  delete: undefined,
};
const batch = (
  action: BillingAction,
  ids: string[],
  headers: Record<string, string> = {},
  as = admin,
) => api.call(ENDPOINT[action][0], ENDPOINT[action][1], { as, body: { ids }, headers });

beforeAll(async () => {
  ({
    api,
    callers: [admin],
  } = await startApi({}, 'ADMIN'));
  item = itemMaker(api, admin);
  coachId = (await newCoach(api, admin)).id;
  clientId = (await newClient(api, admin, ADDRESS)).id;
  await makeRule(api, admin, { name: 'Alles', amountCents: 5000, description: 'Termin' });
});
afterAll(() => api.close());

describe('status × action, every pair', () => {
  for (const status of BILLABLE_ITEM_STATUSES) {
    for (const action of BILLING_ACTIONS) {
      const allowed = canApplyBillingAction(action, status);
      it(`${action} on ${status}: ${allowed ? 'allowed' : '409'}`, async () => {
        const id = await item(clientId, coachId, status);
        const res = await batch(action, [id]);
        if (allowed) {
          expectStatus(res, 200);
          expect(res.body).toEqual(action === 'delete' ? { deleted: 1 } : { updated: 1 });
          expect((await statusesOf(api, [id]))[id]).toBe(TARGET[action]);
        } else {
          expectProblem(res, 409, 'batch_refused');
          expect(res.body.errors).toEqual([
            expect.objectContaining({ field: 'ids.0', id, status, code: 'invalid_transition' }),
          ]);
          expect((await statusesOf(api, [id]))[id]).toBe(status);
        }
      });
    }
  }

  for (const status of BILLABLE_ITEM_STATUSES) {
    for (const [action, path] of [
      ['approve', 'mark-approved'],
      ['markInvoiceSent', 'mark-invoice-sent'],
    ] as const) {
      it(`single ${path} on ${status}`, async () => {
        const id = await item(clientId, coachId, status);
        const res = await api.call('PUT', `/api/billable-items/${id}/${path}`, { as: admin });
        if (canApplyBillingAction(action, status)) {
          expectStatus(res, 200);
          expect(res.body).toMatchObject({ id, status: TARGET[action] });
        } else {
          expectProblem(res, 409, 'invalid_transition');
          expect(res.body.errors[0]).toMatchObject({ id, status });
        }
      });
    }
  }

  it('single actions: 404 for an unknown id', async () => {
    expectProblem(
      await api.call('PUT', `/api/billable-items/${SOME_ID}/mark-approved`, { as: admin }),
      404,
    );
  });
});

describe('batches', () => {
  it('are all or nothing: one bad id changes nothing and the 409 names every offender', async () => {
    const good = [await item(clientId, coachId), await item(clientId, coachId)];
    const approved = await item(clientId, coachId, 'approved');
    const res = await batch('approve', [good[0]!, approved, SOME_ID, good[1]!]);
    expectProblem(res, 409, 'batch_refused');
    expect(res.body.errors).toEqual([
      expect.objectContaining({
        field: 'ids.1',
        id: approved,
        status: 'approved',
        code: 'invalid_transition',
      }),
      expect.objectContaining({ field: 'ids.2', id: SOME_ID, code: 'not_found' }),
    ]);
    expect(await statusesOf(api, good)).toEqual({ [good[0]!]: 'pending', [good[1]!]: 'pending' });
    expect(await eventsOf(api, good, 'billable_item.approved')).toEqual([]);
  });

  it('take at most 1,000 ids (400 naming ids)', async () => {
    const ids = Array.from({ length: 1001 }, () => randomUUID());
    expectFieldError(await batch('approve', ids), 'ids');
    expectFieldError(await batch('approve', []), 'ids');
    expectFieldError(await batch('approve', ['not-a-uuid']), 'ids.0');
  });

  it('a retried batch with the same Idempotency-Key answers the first answer and records once', async () => {
    const ids = [await item(clientId, coachId), await item(clientId, coachId)];
    const key = { 'idempotency-key': `billing-${randomUUID()}` };
    const first = await batch('approve', ids, key);
    expectStatus(first, 200);
    const again = await batch('approve', ids, key);
    expectStatus(again, 200);
    expect(again.body).toEqual(first.body);
    expect(await eventsOf(api, ids, 'billable_item.approved')).toHaveLength(2);
    // Without the key, the same batch is refused: the items are approved already.
    expectProblem(await batch('approve', ids), 409, 'batch_refused');
  });

  it('overlapping batches at once: every item ends in one state, each transition recorded once', async () => {
    const ids = await Promise.all([0, 1, 2, 3, 4].map(() => item(clientId, coachId)));
    // Approve 0–3 and delete 1–4 at once: an approved item cannot be deleted and a deleted
    // one cannot be approved, so the overlap (1–3) lets exactly one batch through.
    const [a, b] = await Promise.all([
      batch('approve', ids.slice(0, 4)),
      batch('delete', ids.slice(1, 5)),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const after = await statusesOf(api, ids);
    const approved = await eventsOf(api, ids, 'billable_item.approved');
    const deleted = await eventsOf(api, ids, 'billable_item.deleted');
    if (a.status === 200) {
      expect(ids.map((id) => after[id])).toEqual([
        'approved',
        'approved',
        'approved',
        'approved',
        'pending',
      ]);
      expect([approved.length, deleted.length]).toEqual([4, 0]);
      expect(b.body.errors.map((e: any) => e.status)).toEqual(['approved', 'approved', 'approved']);
    } else {
      expect(ids.map((id) => after[id])).toEqual([
        'pending',
        undefined,
        undefined,
        undefined,
        undefined,
      ]);
      expect([approved.length, deleted.length]).toEqual([0, 4]);
      expect(a.body.errors.map((e: any) => e.code)).toEqual([
        'not_found',
        'not_found',
        'not_found',
      ]);
    }
  });

  it('approve and cancel at once on the same items: both apply in turn, never half', async () => {
    const ids = await Promise.all([0, 1, 2].map(() => item(clientId, coachId)));
    const [a, b] = await Promise.all([batch('approve', ids), batch('cancel', ids)]);
    const after = Object.values(await statusesOf(api, ids));
    // Cancel first: approve is refused and all stay cancelled. Approve first: cancel
    // (allowed on approved) follows, all end cancelled. Either way one state for all.
    expect(b.status).toBe(200);
    expect(after).toEqual(['cancelled', 'cancelled', 'cancelled']);
    expect(await eventsOf(api, ids, 'billable_item.cancelled')).toHaveLength(3);
    expect(await eventsOf(api, ids, 'billable_item.approved')).toHaveLength(
      a.status === 200 ? 3 : 0,
    );
  });

  it('the same batch twice at once: one succeeds, one transition each', async () => {
    const ids = await Promise.all([0, 1, 2].map(() => item(clientId, coachId)));
    const answers = await Promise.all([batch('approve', ids), batch('approve', ids)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await eventsOf(api, ids, 'billable_item.approved')).toHaveLength(3);
  });

  it('a deleted item is not made again by the job; uncancel refuses a second live item', async () => {
    const id = await item(clientId, coachId);
    expectStatus(await batch('delete', [id]), 200);
    const run = await catchUpBillableItems(api.database.db, {
      now: new Date(),
      changeNoticeHours: 24,
    });
    expect(run.created).toBe(0);
    expect(await statusesOf(api, [id])).toEqual({});
  });

  it('remove validation clears the reasons and keeps them in the event', async () => {
    const id = await item(clientId, coachId, 'validation_failed');
    expectStatus(await batch('removeValidation', [id]), 200);
    const list = await api.call('GET', '/api/billable-items', {
      as: admin,
      query: { clientId, status: 'pending', limit: 50 },
    });
    expect(list.body.billableItems.find((i: any) => i.id === id)).toMatchObject({
      status: 'pending',
      validationErrors: [],
    });
  });
});
