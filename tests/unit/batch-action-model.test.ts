// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  allowedActions,
  batchActionMachine,
  conflictsOf,
  selectionSum,
  type BatchItem,
} from '../../src/machines/batch-action.machine';
import { billingTransitionTable } from '../../src/machines/actors/staff/billing';
import { describeModel, done, failed, flush, startMachine } from '../support/model';

/**
 * The batch action machine on billing's transition table: paths from the real machine, played
 * on a live actor with fake calls; each state is checked in what the /billing page renders
 * from it (tags, the actions offered, the count and sum, the refused items).
 */

const A: BatchItem = { id: 'a', status: 'pending', amountCents: 1000 };
const B: BatchItem = { id: 'b', status: 'pending', amountCents: 2500 };
const C: BatchItem = { id: 'c', status: 'validation_failed', amountCents: 500 };
const NETWORK = Object.assign(new Error('offline'), { code: 'network_error' });
/** The server refused `a`: it was approved meanwhile. */
const REFUSED_A = Object.assign(new Error('batch_refused'), {
  status: 409,
  code: 'batch_refused',
  fieldErrors: [{ field: 'ids.0', code: 'invalid_transition', id: 'a', status: 'approved' }],
});
const INPUT = { transitions: billingTransitionTable(), filter: { status: 'pending' } };

describeModel('batch action machine, model-based', {
  machine: batchActionMachine,
  plans: [
    {
      input: INPUT,
      events: [
        { type: 'batch.toggle', item: A },
        { type: 'batch.toggle', item: C },
        { type: 'batch.page', items: [A, B], selected: true },
        { type: 'batch.selectMatching' },
        { type: 'batch.filter', filter: { status: 'approved' } },
        { type: 'batch.choose', action: 'approve' },
        { type: 'batch.confirm' },
        { type: 'batch.back' },
        { type: 'batch.retry' },
        { type: 'batch.deselectConflicts' },
        done('loadMatching', { items: [A, B], itemCount: 1200, capped: true }),
        failed('loadMatching', NETWORK),
        done('submitBatch', { count: 2 }),
        failed('submitBatch', NETWORK),
        failed('submitBatch', REFUSED_A),
      ],
      // What the page shows: the state, how many are picked and how, the chosen action.
      serialize: (s) => [
        s.context.selected
          .map((i) => i.id)
          .sort()
          .join(),
        s.context.scope,
        s.context.action,
      ],
    },
  ],
  maxPaths: 150,
  start: (plan) => {
    const notices: Array<{ action: string; count: number }> = [];
    return {
      ...startMachine(batchActionMachine, {
        input: plan.input!,
        actions: {
          notifyDone: (_: unknown, params: { action: string; count: number }) =>
            void notices.push(params),
        },
      }),
      notices,
    };
  },
  states: {
    'batchAction.selecting': (s) => {
      expect(s.hasTag('busy')).toBe(false);
      expect(s.hasTag('open')).toBe(false);
      // The bar offers exactly the actions the whole selection allows.
      const statuses = new Set(s.context.selected.map((i) => i.status));
      const expected =
        statuses.size === 0
          ? []
          : statuses.has('validation_failed') && statuses.has('pending')
            ? ['cancel', 'delete']
            : statuses.has('validation_failed')
              ? ['cancel', 'removeValidation', 'delete']
              : ['approve', 'cancel', 'delete'];
      expect(allowedActions(s.context)).toEqual(expected);
      expect(s.can({ type: 'batch.choose', action: 'approve' })).toBe(expected.includes('approve'));
      expect(s.can({ type: 'batch.choose', action: 'uncancel' })).toBe(false);
    },
    'batchAction.loadingMatching': (s, run) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(run.fakes.loadMatching!.latest().input).toEqual(s.context.filter);
    },
    'batchAction.matchingFailed': (s) => {
      expect(s.hasTag('error')).toBe(true);
      expect(s.context.error).toEqual({ code: 'network_error' });
      expect(s.can({ type: 'batch.retry' })).toBe(true);
    },
    'batchAction.confirming': (s) => {
      expect(s.hasTag('open')).toBe(true);
      expect(s.context.action).toBe('approve');
      expect(s.context.selected.length).toBeGreaterThan(0);
      expect(selectionSum(s.context)).toBe(
        s.context.selected.reduce((n, i) => n + i.amountCents!, 0),
      );
      expect(s.can({ type: 'batch.toggle', item: A })).toBe(false);
    },
    'batchAction.submitting': (s, run) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(run.fakes.submitBatch!.latest().input).toEqual({
        action: 'approve',
        ids: s.context.selected.map((i) => i.id),
        idempotencyKey: s.context.idempotencyKey,
      });
      expect(s.context.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    },
    'batchAction.done': (s, run) => {
      expect(s.hasTag('done')).toBe(true);
      expect(s.context.result).toEqual({ action: 'approve', count: 2 });
      expect(s.context.selected).toEqual([]);
      expect(run.notices.at(-1)).toEqual({ action: 'approve', count: 2 });
    },
    'batchAction.conflict': (s) => {
      expect(s.hasTag('conflict')).toBe(true);
      expect(s.context.conflicts).toEqual([
        { id: 'a', status: 'approved', code: 'invalid_transition' },
      ]);
      expect(s.can({ type: 'batch.deselectConflicts' })).toBe(true);
    },
    'batchAction.failed': (s) => {
      expect(s.hasTag('error')).toBe(true);
      expect(s.context.error).toEqual({ code: 'network_error' });
      expect(s.context.idempotencyKey).not.toBeNull();
    },
  },
});

describe('batch action machine', () => {
  const start = () => startMachine(batchActionMachine, { input: INPUT });

  it('keeps the Idempotency-Key when the same batch is retried, and takes a new one for the rest after a 409', async () => {
    const { actor, fakes } = start();
    actor.send({ type: 'batch.page', items: [A, B], selected: true });
    actor.send({ type: 'batch.choose', action: 'approve' });
    actor.send({ type: 'batch.confirm' });
    fakes.submitBatch!.reject(NETWORK);
    await flush();
    actor.send({ type: 'batch.retry' });
    fakes.submitBatch!.reject(REFUSED_A);
    await flush();
    expect(actor.getSnapshot().value).toBe('conflict');
    actor.send({ type: 'batch.deselectConflicts' });
    const [first, retry, rest] = fakes.submitBatch!.calls;
    expect(retry).toEqual(first);
    expect(rest!.ids).toEqual(['b']);
    expect(rest!.idempotencyKey).not.toBe(first!.idempotencyKey);
  });

  it('drops the selection when the filter changes, not when it is set again', () => {
    const { actor } = start();
    actor.send({ type: 'batch.toggle', item: A });
    actor.send({ type: 'batch.filter', filter: { status: 'pending' } });
    expect(actor.getSnapshot().context.selected).toEqual([A]);
    actor.send({ type: 'batch.filter', filter: { status: 'pending', coachId: 'x' } });
    expect(actor.getSnapshot().context.selected).toEqual([]);
  });

  it('after a 409 that refuses everything, goes back to the list with nothing selected', async () => {
    const { actor, fakes } = start();
    actor.send({ type: 'batch.toggle', item: A });
    actor.send({ type: 'batch.choose', action: 'approve' });
    actor.send({ type: 'batch.confirm' });
    fakes.submitBatch!.reject(REFUSED_A);
    await flush();
    actor.send({ type: 'batch.deselectConflicts' });
    expect(actor.getSnapshot().value).toBe('selecting');
    expect(actor.getSnapshot().context.selected).toEqual([]);
    expect(fakes.submitBatch!.calls).toHaveLength(1);
  });

  it('reads refused ids only from a 409 batch_refused', () => {
    expect(conflictsOf(REFUSED_A)).toEqual([
      { id: 'a', status: 'approved', code: 'invalid_transition' },
    ]);
    expect(conflictsOf({ ...REFUSED_A, status: 400 })).toBeNull();
    expect(conflictsOf(NETWORK)).toBeNull();
  });

  it('offers documentation its own table and no sum when records carry no amount', () => {
    const context = {
      transitions: { complete: ['signed'] },
      selected: [{ id: 'd', status: 'signed' }],
    };
    expect(allowedActions(context)).toEqual(['complete']);
    expect(selectionSum(context)).toBeNull();
  });
});
