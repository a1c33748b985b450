import { describe, expect, it, vi } from 'vitest';
import { createActor, toPromise, type PromiseActorLogic } from 'xstate';
import type { ApiClient } from '../../src/api/client';
import {
  loadBillingRuleRecordActor,
  saveBillingRuleActor,
  type BillingRule,
} from '../../src/machines/actors/staff/billing-rules';
import { machineErrorOf } from '../../src/machines/shared/failures';

/** The rule form's load and save: one rule out of the whole list, create without an id, update with one. */

const rule = { id: 'r1', name: 'Erstgespräch' } as unknown as BillingRule;

function fakeApi() {
  const GET = vi.fn(async () => ({ data: { billingRules: [rule] } }));
  const POST = vi.fn(async () => ({ data: { id: 'new' } }));
  const PUT = vi.fn(async () => ({ data: { id: 'r1' } }));
  return { api: { GET, POST, PUT } as unknown as ApiClient, GET, POST, PUT };
}

const run = <TOutput, TInput>(logic: PromiseActorLogic<TOutput, TInput>, input: TInput) =>
  toPromise(createActor(logic, { input }).start());

describe('billing rule record actors', () => {
  it('loads one rule as form values with the rule itself', async () => {
    const { api } = fakeApi();
    const loaded = await run(
      loadBillingRuleRecordActor(api, (r) => ({ name: r.name })),
      { id: 'r1' },
    );
    expect(loaded).toEqual({ values: { name: 'Erstgespräch' }, record: rule });
  });

  it('answers a rule that is gone as not_found (404)', async () => {
    const { api } = fakeApi();
    const failure = await run(
      loadBillingRuleRecordActor(api, () => ({})),
      { id: 'gone' },
    ).catch((e: unknown) => e);
    expect(machineErrorOf(failure)).toEqual({ code: 'not_found', status: 404 });
  });

  it('creates a new rule with POST and changes an existing one with PUT', async () => {
    const { api, POST, PUT } = fakeApi();
    expect(await run(saveBillingRuleActor(api), { id: null, body: { name: 'Neu' } })).toEqual({
      id: 'new',
    });
    expect(POST).toHaveBeenCalledWith(
      '/admin/billing-rules',
      expect.objectContaining({ body: { name: 'Neu' } }),
    );
    expect(await run(saveBillingRuleActor(api), { id: 'r1', body: { name: 'Anders' } })).toEqual({
      id: 'r1',
    });
    expect(PUT).toHaveBeenCalledWith(
      '/admin/billing-rules/{id}',
      expect.objectContaining({ params: { path: { id: 'r1' } }, body: { name: 'Anders' } }),
    );
  });
});
