// @vitest-environment node
import { expect } from 'vitest';
import { recordPickerMachine, type PickerOption } from '../../src/machines/record-picker.machine';
import { describeModel, done, failed, startMachine } from '../support/model';

/**
 * Model-based test of the record picker (the events list's client filter): typing waits, then
 * searches; a choice becomes the filter's value; an id from the URL is shown by its name once
 * resolved, and as the bare id if that fails. Checked in what the field shows: the chosen
 * record (the hidden input's value), the results, the busy and error states.
 */
const ID = '00000000-0000-4000-8000-0000000000e1';
const ERIKA: PickerOption = { id: ID, label: 'Erika Mustermann', detail: '1980' };
const OTTO: PickerOption = { id: '00000000-0000-4000-8000-0000000000e2', label: 'Otto Normal' };

const events = [
  { type: 'picker.query', query: 'Mu' },
  { type: 'picker.query', query: 'M' },
  { type: 'xstate.after.searchDebounce.recordPicker.debouncing' },
  done('search', [ERIKA, OTTO]),
  failed('search', { status: 503, code: 'unavailable' }),
  { type: 'picker.retry' },
  { type: 'picker.choose', option: OTTO },
  { type: 'picker.clear' },
  done('resolve', ERIKA),
  failed('resolve', { status: 404, code: 'not_found' }),
] as const;

describeModel('record picker machine, model-based', {
  machine: recordPickerMachine,
  plans: [
    { name: 'empty', events, serialize: (s) => s.context.chosen?.id ?? null },
    {
      name: 'from the URL',
      input: { chosenId: ID },
      events,
      serialize: (s) => s.context.chosen?.label ?? null,
    },
  ],
  start: (plan) => startMachine(recordPickerMachine, plan.input ? { input: plan.input } : {}),
  states: {
    'recordPicker.resolving': (s, run) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(s.context.chosen?.id).toBe(ID);
      expect(run.fakes.resolve!.calls.at(-1)).toEqual({ id: ID });
    },
    'recordPicker.idle': (s, run) => {
      expect(s.hasTag('busy')).toBe(false);
      expect(s.context.results).toEqual([]);
      const chosen = s.context.chosen;
      // A failed resolve keeps the id from the URL, shown as it is.
      if (chosen?.id === ID && run.fakes.resolve!.all.at(-1)?.settled) {
        expect([ERIKA.label, ID]).toContain(chosen.label);
      }
      // Too short a query asks nothing.
      if (s.context.query.trim().length < 2)
        expect(s.can({ type: 'picker.choose', option: OTTO })).toBe(false);
    },
    'recordPicker.debouncing': (s, run) => {
      expect(s.context.query).toBe('Mu');
      expect(run.fakes.search!.pending()).toBe(0);
    },
    'recordPicker.searching': (s, run) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(run.fakes.search!.calls.at(-1)).toEqual({ query: 'Mu' });
    },
    'recordPicker.results': (s) => {
      expect(s.hasTag('results')).toBe(true);
      expect(s.context.results.map((r) => r.label)).toEqual(['Erika Mustermann', 'Otto Normal']);
      expect(s.can({ type: 'picker.choose', option: OTTO })).toBe(true);
    },
    'recordPicker.failed': (s) => {
      expect(s.hasTag('error')).toBe(true);
      expect(s.context.error?.code).toBe('unavailable');
      expect(s.can({ type: 'picker.retry' })).toBe(true);
    },
  },
  finish: (run, path) => {
    const last = path.steps.at(-1)!.event;
    const chosen = run.actor.getSnapshot().context.chosen;
    if (last.type === 'picker.choose') expect(chosen).toEqual(OTTO);
    if (last.type === 'picker.clear') expect(chosen).toBeNull();
  },
});
