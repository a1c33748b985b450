// @vitest-environment node
import { expect } from 'vitest';
import type { AnyEventObject } from 'xstate';
import { toScheduleError } from '../../src/machines/scheduling/shared';
import { slotPickerMachine, type SlotPickerInput } from '../../src/machines/slot-picker.machine';
import { describeModel, done, failed, startMachine, type ModelPath } from '../support/model';
import { apiError, appointment, COACH_ID, slot } from './scheduling-fakes';

/**
 * Model-based test of the slot picker every booking page invokes (staff booking, new client
 * with initial appointment, the client's selection and reschedule): loading, a failed load and
 * its retry, moving by week (never before the first week) or by day, choosing, confirming, the
 * submit with one Idempotency-Key per choice, a slot taken meanwhile (fresh slots with the
 * reason), a failed submit back at the confirmation, and answers that end the picking.
 */

const NETWORK = Object.assign(new Error('offline'), { code: 'network_error' });
const SLOT = slot('2026-03-26T09:00:00.000Z', '2026-03-26T09:30:00.000Z');
const LATER = slot('2026-03-27T10:00:00.000Z', '2026-03-27T10:30:00.000Z');
const QUERY = { coachId: COACH_ID, duration: 30 };
const WEEK = '2026-03-23';
const windowOf = (weekStart: string | null) => ({
  startDate: `${weekStart ?? 'now'}:start`,
  endDate: `${weekStart ?? 'now'}:end`,
});

const byWeek: SlotPickerInput = {
  query: QUERY,
  window: windowOf,
  weekStart: WEEK,
  firstWeek: WEEK,
  errorOf: toScheduleError,
};
const byDay: SlotPickerInput = {
  query: QUERY,
  window: windowOf,
  slots: [SLOT, LATER],
  conflictCodes: ['slot_taken', 'notice_period'],
  endCodes: ['not_a_client'],
  errorOf: toScheduleError,
};

const submits = (path: ModelPath) =>
  path.steps.filter((s) => s.event.type === 'booking.confirm').length;

const common: AnyEventObject[] = [
  done('loadSlots', [SLOT, LATER]),
  failed('loadSlots', NETWORK),
  { type: 'retry' },
  { type: 'slot.select', slot: SLOT },
  { type: 'booking.confirm' },
  { type: 'booking.back' },
  done('submit', appointment()),
  failed('submit', apiError(409, 'slot_taken')),
  failed('submit', NETWORK),
];

describeModel('slot picker machine, model-based', {
  machine: slotPickerMachine,
  plans: [
    {
      name: 'by week',
      input: byWeek,
      events: [
        ...common,
        { type: 'week.next' },
        { type: 'week.previous' },
        { type: 'query.change', query: null },
        { type: 'query.change', query: { ...QUERY, duration: 60 } },
      ],
      serialize: (s) => ({
        later: s.context.weekStart !== WEEK,
        query: s.context.query?.duration ?? null,
        conflict: s.context.conflict,
        error: s.context.error?.code ?? null,
        slots: s.context.slots.length,
      }),
    },
    {
      name: 'by day',
      input: byDay,
      events: [
        ...common,
        { type: 'day.select', day: '2026-03-27' },
        failed('loadSlots', apiError(403, 'not_a_client')),
        failed('submit', apiError(403, 'not_a_client')),
        failed('submit', apiError(409, 'notice_period')),
      ],
      serialize: (s) => ({
        day: s.context.day,
        conflict: s.context.conflict,
        error: s.context.error?.code ?? null,
      }),
    },
  ],
  start: (plan) => startMachine(slotPickerMachine, { input: plan.input! }),
  states: {
    'slotPicker.picking': (s) => {
      expect(s.hasTag('picking')).toBe(true);
      expect(s.can({ type: 'booking.confirm' })).toBe(false);
    },
    'slotPicker.picking.waiting': (s, run) => {
      // Nothing to ask for yet (a manager has not picked the coach): no call goes out.
      expect(s.hasTag('needQuery')).toBe(true);
      expect(run.fakes.loadSlots!.all.every((c) => c.settled || c.signal.aborted)).toBe(true);
    },
    'slotPicker.picking.loading': (s, run) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(run.fakes.loadSlots!.latest().input).toEqual({
        ...s.context.query,
        ...windowOf(s.context.weekStart),
      });
    },
    'slotPicker.picking.loadFailed': (s) => {
      expect(s.hasTag('error')).toBe(true);
      expect(s.context.error).toEqual({ code: 'network_error' });
      expect(s.can({ type: 'retry' })).toBe(true);
    },
    'slotPicker.picking.choosing': (s) => {
      expect(s.hasTag('slotsReady')).toBe(true);
      expect(s.can({ type: 'slot.select', slot: SLOT })).toBe(true);
      // The day shown has free slots; no going back before the first week.
      if (s.context.day !== null)
        expect(s.context.slots.some((x) => x.startDate.startsWith(s.context.day!))).toBe(true);
      expect(s.can({ type: 'week.previous' })).toBe(
        s.context.weekStart !== null && s.context.weekStart > WEEK,
      );
    },
    'slotPicker.confirming': (s) => {
      expect(s.hasTag('confirm')).toBe(true);
      expect(s.context.slot).toEqual(SLOT);
      expect(s.context.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
      expect(s.can({ type: 'week.next' })).toBe(false);
    },
    'slotPicker.submitting': (s, run) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(run.fakes.submit!.latest().input).toEqual({
        query: s.context.query,
        slot: SLOT,
        idempotencyKey: s.context.idempotencyKey,
      });
    },
    'slotPicker.submitted': (s) => {
      expect(s.status).toBe('done');
      expect(s.output).toEqual({ outcome: 'submitted', slot: SLOT, result: appointment() });
    },
    'slotPicker.ended': (s) => {
      expect(s.status).toBe('done');
      expect(s.output).toEqual({ outcome: 'ended', code: 'not_a_client' });
    },
  },
  finish: (run, path) => {
    // One submit per confirmation; a slot taken meanwhile loads afresh with the reason.
    expect(run.fakes.submit!.calls).toHaveLength(submits(path));
    const last = path.steps.at(-1)!.event as { type: string; error?: { code?: string } };
    if (
      last.type === 'xstate.error.actor.submit' &&
      ['slot_taken', 'notice_period'].includes(last.error?.code ?? '')
    ) {
      expect(run.actor.getSnapshot().context.conflict).toBe(last.error!.code);
      expect(run.actor.getSnapshot().context.slot).toBeNull();
    }
  },
});
