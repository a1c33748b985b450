import type { Temporal } from '@js-temporal/polyfill';
import { assign, fromPromise, not, setup } from 'xstate';
import { machineErrorOf, type MachineError, notProvided } from './shared/failures';

/**
 * "DATEV-Export" on `/billing/invoices`: a range of invoice dates (the last calendar month at
 * first), then the Buchungsstapel as a download. A range whose end is before its start is not
 * sent (the server would answer 400 naming `toDate`); a failure stays with retry.
 */
export interface DatevRange {
  fromDate: string;
  toDate: string;
}

export interface DatevExportContext extends DatevRange {
  error: MachineError | null;
}

export type DatevExportEvent =
  { type: 'datev.change'; fromDate?: string; toDate?: string } | { type: 'datev.export' };

/** The calendar month before `today`'s, both ends included. */
export function previousMonth(today: Temporal.PlainDate): DatevRange {
  const first = today.with({ day: 1 }).subtract({ months: 1 });
  return { fromDate: first.toString(), toDate: first.with({ day: first.daysInMonth }).toString() };
}

const isDate = (s: string) => /^\d{4}-\d{2}-\d{2}$/.test(s);

export const datevExportMachine = setup({
  types: {
    context: {} as DatevExportContext,
    events: {} as DatevExportEvent,
    input: {} as DatevRange,
    tags: {} as 'busy' | 'error' | 'invalidRange' | 'done',
  },
  actors: {
    exportDatev: fromPromise<unknown, DatevRange>(notProvided('DATEV export', 'exportDatev')),
  },
  guards: {
    validRange: ({ context }) =>
      isDate(context.fromDate) && isDate(context.toDate) && context.fromDate <= context.toDate,
  },
  actions: {
    change: assign(({ event }) => {
      if (event.type !== 'datev.change') return {};
      return {
        ...(event.fromDate !== undefined ? { fromDate: event.fromDate } : {}),
        ...(event.toDate !== undefined ? { toDate: event.toDate } : {}),
        error: null,
      };
    }),
  },
}).createMachine({
  id: 'datevExport',
  context: ({ input }) => ({ ...input, error: null }),
  initial: 'editing',
  on: { 'datev.change': { target: '.editing', actions: 'change' } },
  states: {
    editing: {
      always: { guard: not('validRange'), target: 'invalid' },
      on: { 'datev.export': { guard: 'validRange', target: 'exporting' } },
    },
    /** The end is before the start (or a date is missing): nothing to export. */
    invalid: {
      tags: ['invalidRange'],
      always: { guard: 'validRange', target: 'editing' },
    },
    exporting: {
      tags: ['busy'],
      invoke: {
        id: 'exportDatev',
        src: 'exportDatev',
        input: ({ context }) => ({ fromDate: context.fromDate, toDate: context.toDate }),
        onDone: 'done',
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => machineErrorOf(event.error) }),
        },
      },
    },
    done: {
      tags: ['done'],
      on: { 'datev.export': { guard: 'validRange', target: 'exporting' } },
    },
    failed: {
      tags: ['error'],
      on: { 'datev.export': { guard: 'validRange', target: 'exporting' } },
    },
  },
});
