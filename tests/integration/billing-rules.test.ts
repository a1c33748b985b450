import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Api } from '../support/api';
import {
  expectFieldError,
  expectProblem,
  expectStatus,
  ids,
  startApi,
  SOME_ID,
  type Caller,
} from './fixtures';

let api: Api;
let admin: Caller;
let superadmin: Caller;
let coach: Caller;
let manager: Caller;

beforeAll(async () => {
  ({
    api,
    callers: [admin, superadmin, coach, manager],
  } = await startApi({}, 'ADMIN', 'SUPERADMIN', 'COACH', 'ONBOARDING_MANAGER'));
});
afterAll(() => api.close());

const rules = async () => {
  const res = await api.call('GET', '/api/admin/billing-rules', { as: admin });
  expectStatus(res, 200);
  return res.body.billingRules as any[];
};
const create = (body: Record<string, unknown>, as: Caller = admin) =>
  api.call('POST', '/api/admin/billing-rules', { as, body });

describe('billing rules', () => {
  it('creates with defaults (19 %, client pays, version 1, appended) and lists in order', async () => {
    const a = await create({ name: 'A', amountCents: 6500, description: 'Folgetermin' });
    expectStatus(a, 201);
    expect(a.body).toMatchObject({
      version: 1,
      vatTreatment: 'standard',
      vatRatePercent: 19,
      vatExemptionReason: null,
      payerKind: 'client',
      active: true,
      noShow: null,
      cancelledLate: null,
    });
    const b = await create(
      {
        name: 'B',
        amountCents: 4500,
        description: 'Konsultation',
        appointmentType: 'first-arztkonsultation',
        vatTreatment: 'exempt',
        vatExemptionReason: 'Steuerfreie Heilbehandlung gem. § 4 Nr. 14 a UStG',
        payerKind: 'statutory_insurer',
        clientType: 'relative',
        sponsorPays: false,
        validFrom: '2026-01-01',
        validTo: '2026-12-31',
      },
      superadmin,
    );
    expectStatus(b, 201);
    expect(b.body.vatRatePercent).toBe(0);
    expect(b.body.position).toBe(a.body.position + 1);
    expect(ids(await rules())).toEqual([a.body.id, b.body.id]);
  });

  it('refuses inconsistent VAT and date ranges with 400 naming the field', async () => {
    expectFieldError(
      await create({ name: 'X', amountCents: 1, description: 'x', vatTreatment: 'exempt' }),
      'vatExemptionReason',
    );
    expectFieldError(
      await create({ name: 'X', amountCents: 1, description: 'x', vatExemptionReason: 'Grund' }),
      'vatExemptionReason',
    );
    expectFieldError(
      await create({
        name: 'X',
        amountCents: 1,
        description: 'x',
        validFrom: '2026-05-02',
        validTo: '2026-05-01',
      }),
      'validTo',
    );
    expectFieldError(await create({ name: 'X', amountCents: -1, description: 'x' }), 'amountCents');
    expectFieldError(
      await create({ name: 'X', amountCents: 1, description: 'x', payerKind: 'boss' }),
      'payerKind',
    );
  });

  it('update raises the version; switching to standard drops the reason', async () => {
    const [, exempt] = await rules();
    const res = await api.call('PUT', `/api/admin/billing-rules/${exempt.id}`, {
      as: admin,
      body: { vatTreatment: 'standard', amountCents: 5000 },
    });
    expectStatus(res, 200);
    expect(res.body).toMatchObject({
      version: 2,
      vatTreatment: 'standard',
      vatExemptionReason: null,
      amountCents: 5000,
    });
    expectProblem(
      await api.call('PUT', `/api/admin/billing-rules/${SOME_ID}`, {
        as: admin,
        body: { name: 'n' },
      }),
      404,
    );
    expectFieldError(
      await api.call('PUT', `/api/admin/billing-rules/${exempt.id}`, {
        as: admin,
        body: { vatTreatment: 'exempt' },
      }),
      'vatExemptionReason',
    );
  });

  it("reorder takes exactly today's set; a stale list is 409 and changes nothing", async () => {
    const before = ids(await rules());
    const c = await create({ name: 'C', amountCents: 0, description: 'c', active: false });
    expectStatus(c, 201);
    // The caller's list from before C was added is stale.
    const stale = await api.call('PUT', '/api/admin/billing-rules/reorder', {
      as: admin,
      body: { ids: [...before].reverse() },
    });
    expectProblem(stale, 409, 'stale_rule_order');
    expect(ids(await rules())).toEqual([...before, c.body.id]);
    const unknown = await api.call('PUT', '/api/admin/billing-rules/reorder', {
      as: admin,
      body: { ids: [...before, SOME_ID] },
    });
    expectProblem(unknown, 409, 'stale_rule_order');
    const wanted = [c.body.id, ...before].reverse();
    const ok = await api.call('PUT', '/api/admin/billing-rules/reorder', {
      as: admin,
      body: { ids: wanted },
    });
    expectStatus(ok, 200);
    expect(ids(ok.body.billingRules)).toEqual(wanted);
    expect(ok.body.billingRules.map((r: any) => r.position)).toEqual([0, 1, 2]);
  });

  it('delete closes the gap in positions', async () => {
    const [first, ...rest] = await rules();
    expectStatus(
      await api.call('DELETE', `/api/admin/billing-rules/${first.id}`, { as: admin }),
      204,
    );
    const after = await rules();
    expect(ids(after)).toEqual(ids(rest));
    expect(after.map((r) => r.position)).toEqual([0, 1]);
    expectProblem(
      await api.call('DELETE', `/api/admin/billing-rules/${first.id}`, { as: admin }),
      404,
    );
  });

  it('coaches and onboarding managers reach no rule operation', async () => {
    for (const as of [coach, manager]) {
      expectProblem(await api.call('GET', '/api/admin/billing-rules', { as }), 403);
      expectProblem(await create({ name: 'X', amountCents: 1, description: 'x' }, as), 403);
    }
  });
});
