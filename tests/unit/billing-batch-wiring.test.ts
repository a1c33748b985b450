// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { assign, createActor, setup, type ActorRefFrom } from 'xstate';
import type { listMachine } from '../../src/machines/list.machine';
import { wireBillingBatch } from '../../src/machines/wiring/billing-batch';
import type { RouteEffects } from '../../src/machines/wiring/effects';

/** Stands in for the list machine: its filters and the reloads it was asked for. */
const fakeList = setup({
  types: {
    context: {} as { query: { filters: Record<string, string> }; reloads: number },
    events: {} as
      { type: 'list.filter'; filters: Record<string, string> } | { type: 'list.reload' },
  },
}).createMachine({
  context: { query: { filters: { status: 'pending' } }, reloads: 0 },
  on: {
    'list.filter': { actions: assign({ query: ({ event }) => ({ filters: event.filters }) }) },
    'list.reload': { actions: assign({ reloads: ({ context }) => context.reloads + 1 }) },
  },
});

describe('billing batch wiring', () => {
  it('drops the selection when the list takes a new filter, keeps it for the same one', () => {
    const list = createActor(fakeList).start();
    const effects = { api: {} } as unknown as RouteEffects;
    const batch = createActor(
      wireBillingBatch(effects, list as unknown as ActorRefFrom<typeof listMachine>),
      {
        input: { transitions: { approve: ['pending'] }, filter: { status: 'pending' } },
      },
    ).start();
    const item = { id: 'a', status: 'pending' };
    batch.send({ type: 'batch.toggle', item });
    list.send({ type: 'list.filter', filters: { status: 'pending' } });
    expect(batch.getSnapshot().context.selected).toEqual([item]);
    list.send({ type: 'list.filter', filters: { status: 'approved' } });
    expect(batch.getSnapshot().context.selected).toEqual([]);
    expect(batch.getSnapshot().context.filter).toEqual({ status: 'approved' });
    batch.stop();
    list.send({ type: 'list.filter', filters: { status: 'pending' } });
    expect(batch.getSnapshot().context.filter).toEqual({ status: 'approved' });
  });
});
