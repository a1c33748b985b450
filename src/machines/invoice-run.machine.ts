import { assign, fromPromise, setup } from 'xstate';
import type { components } from '../../shared/contract/product';
import { machineErrorOf, type MachineError, notProvided } from './shared/failures';

/**
 * "Rechnungslauf starten" on `/billing/invoices` (ADMIN): first what a run would take now
 * (approved items on no invoice, how many payers, their sum), then a confirmation, then the run
 * and its result (the invoices issued, with links). Nothing due → says so and offers no run.
 *
 * The Idempotency-Key is made when the question is confirmed and kept by "retry" after a
 * failure, so a run whose answer was lost is not issued twice.
 */
export type InvoiceRunPreview = components['schemas']['InvoiceRunPreview'];
export type InvoiceRunResult = components['schemas']['InvoiceRunResult'];

export interface RunRequest {
  idempotencyKey: string;
}

export interface InvoiceRunContext {
  preview: InvoiceRunPreview | null;
  result: InvoiceRunResult | null;
  idempotencyKey: string | null;
  error: MachineError | null;
}

export type InvoiceRunEvent =
  | { type: 'run.start' }
  | { type: 'run.confirm' }
  | { type: 'run.abort' }
  | { type: 'run.retry' }
  | { type: 'run.dismiss' };

export const invoiceRunMachine = setup({
  types: {
    context: {} as InvoiceRunContext,
    events: {} as InvoiceRunEvent,
    tags: {} as 'busy' | 'error' | 'open' | 'checking' | 'nothingDue' | 'question' | 'running',
  },
  actors: {
    previewRun: fromPromise<InvoiceRunPreview, void>(notProvided('invoice run', 'previewRun')),
    runInvoices: fromPromise<InvoiceRunResult, RunRequest>(notProvided('invoice run', 'runInvoices')),
  },
  actions: {
    /** The run issued invoices: the page reloads its list. */
    notifyDone: (_, _params: { count: number }) => undefined,
    keepError: assign({ error: (_, params: { error: unknown }) => machineErrorOf(params.error) }),
    reset: assign({ preview: null, result: null, idempotencyKey: null, error: null }),
  },
  guards: {
    somethingDue: (_, params: { preview: InvoiceRunPreview }) => params.preview.itemCount > 0,
  },
}).createMachine({
  id: 'invoiceRun',
  context: { preview: null, result: null, idempotencyKey: null, error: null },
  initial: 'idle',
  states: {
    idle: {
      on: { 'run.start': { target: 'previewing', actions: 'reset' } },
    },
    /** Asks the server what a run would take now. */
    previewing: {
      tags: ['busy', 'open', 'checking'],
      invoke: {
        id: 'previewRun',
        src: 'previewRun',
        onDone: [
          {
            guard: { type: 'somethingDue', params: ({ event }) => ({ preview: event.output }) },
            target: 'confirming',
            actions: assign({ preview: ({ event }) => event.output }),
          },
          { target: 'nothingDue', actions: assign({ preview: ({ event }) => event.output }) },
        ],
        onError: { target: 'previewFailed', actions: { type: 'keepError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    previewFailed: {
      tags: ['error', 'open'],
      on: { 'run.retry': { target: 'previewing', actions: assign({ error: null }) }, 'run.abort': 'idle' },
    },
    /** No approved item waits for an invoice: nothing to confirm. */
    nothingDue: {
      tags: ['open', 'nothingDue'],
      on: { 'run.abort': 'idle' },
    },
    /** "N Positionen für M Zahler: Rechnungen erstellen?" */
    confirming: {
      tags: ['open', 'question'],
      on: {
        'run.confirm': { target: 'running', actions: assign({ idempotencyKey: () => crypto.randomUUID() }) },
        'run.abort': 'idle',
      },
    },
    running: {
      tags: ['busy', 'open', 'question', 'running'],
      invoke: {
        id: 'runInvoices',
        src: 'runInvoices',
        input: ({ context }) => ({ idempotencyKey: context.idempotencyKey! }),
        onDone: {
          target: 'done',
          actions: [
            assign({ result: ({ event }) => event.output }),
            { type: 'notifyDone', params: ({ event }) => ({ count: event.output.invoices.length }) },
          ],
        },
        onError: { target: 'failed', actions: { type: 'keepError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    /** The run's answer did not arrive: retry with the same key, or give up. */
    failed: {
      tags: ['error', 'open', 'question'],
      on: { 'run.retry': { target: 'running', actions: assign({ error: null }) }, 'run.abort': 'idle' },
    },
    /** "N Rechnungen erstellt", each linked, until dismissed or the next run. */
    done: {
      on: {
        'run.start': { target: 'previewing', actions: 'reset' },
        'run.dismiss': { target: 'idle', actions: 'reset' },
      },
    },
  },
});
