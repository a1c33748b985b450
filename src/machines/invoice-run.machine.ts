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
 *
 * Before the question the preview names sponsors and insurers without a complete invoice
 * address: the run is confirmed only once they are completed (a new check) or the
 * person explicitly chooses to issue anyway; and it is not offered at all while the practice
 * settings lack the seller identifier an XRechnung needs (BR-CO-26).
 *
 * A large run is queued by the server (202 with the run): the machine then asks for its
 * progress every POLL_INTERVAL_MS ("12 von 200 Rechnungen erstellt") until the job is done or
 * failed; an unanswered poll is simply asked again. The dialog stays open meanwhile.
 */
export type InvoiceRunPreview = components['schemas']['InvoiceRunPreview'];
export type InvoiceRunResult = components['schemas']['InvoiceRunResult'];
export type QueuedInvoiceRun = components['schemas']['InvoiceRun'];

/** What POST /invoices/runs answered: the invoices (201), or the queued run (202). */
export type RunOutcome =
  { kind: 'issued'; result: InvoiceRunResult } | { kind: 'queued'; run: QueuedInvoiceRun };

export const POLL_INTERVAL_MS = 1_000;

export interface RunRequest {
  idempotencyKey: string;
  /** Issue also to payers without a complete address (the explicit choice). */
  issueWithoutAddress: boolean;
}

export interface InvoiceRunContext {
  preview: InvoiceRunPreview | null;
  result: InvoiceRunResult | null;
  /** The queued run and its progress (large runs only). */
  run: QueuedInvoiceRun | null;
  idempotencyKey: string | null;
  /** The person chose to issue to payers without a complete address. */
  issueWithoutAddress: boolean;
  error: MachineError | null;
}

export type InvoiceRunEvent =
  | { type: 'run.start' }
  | { type: 'run.confirm' }
  | { type: 'run.issueWithoutAddress'; value: boolean }
  | { type: 'run.abort' }
  | { type: 'run.retry' }
  | { type: 'run.dismiss' };

export const invoiceRunMachine = setup({
  types: {
    context: {} as InvoiceRunContext,
    events: {} as InvoiceRunEvent,
    tags: {} as
      | 'busy'
      | 'error'
      | 'open'
      | 'checking'
      | 'nothingDue'
      | 'question'
      | 'confirming'
      | 'running'
      | 'queued'
      | 'jobFailed',
  },
  actors: {
    previewRun: fromPromise<InvoiceRunPreview, void>(notProvided('invoice run', 'previewRun')),
    runInvoices: fromPromise<RunOutcome, RunRequest>(notProvided('invoice run', 'runInvoices')),
    loadRun: fromPromise<QueuedInvoiceRun, { id: string }>(notProvided('invoice run', 'loadRun')),
  },
  delays: { pollInterval: POLL_INTERVAL_MS },
  actions: {
    /** The run issued invoices: the page reloads its list. */
    notifyDone: (_, _params: { count: number }) => undefined,
    keepError: assign({ error: (_, params: { error: unknown }) => machineErrorOf(params.error) }),
    /** A queued run stopped (done or failed): what it issued is kept and listed. */
    keepFinishedRun: assign((_, params: { run: QueuedInvoiceRun }) => ({
      run: params.run,
      result: { invoices: params.run.invoices, itemCount: params.run.itemCount },
    })),
    reset: assign({
      preview: null,
      result: null,
      run: null,
      idempotencyKey: null,
      issueWithoutAddress: false,
      error: null,
    }),
  },
  guards: {
    somethingDue: (_, params: { preview: InvoiceRunPreview }) => params.preview.itemCount > 0,
    /** No XRechnung blocked by the practice settings, and every payer's address complete or knowingly skipped. */
    ready: ({ context }) =>
      !!context.preview &&
      !context.preview.sellerIdentifierMissing &&
      (context.preview.payersWithoutAddress.length === 0 || context.issueWithoutAddress),
    queued: (_, params: { outcome: RunOutcome }) => params.outcome.kind === 'queued',
    runDone: (_, params: { run: QueuedInvoiceRun }) => params.run.status === 'done',
    runFailed: (_, params: { run: QueuedInvoiceRun }) => params.run.status === 'failed',
  },
}).createMachine({
  id: 'invoiceRun',
  context: {
    preview: null,
    result: null,
    run: null,
    idempotencyKey: null,
    issueWithoutAddress: false,
    error: null,
  },
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
        onError: {
          target: 'previewFailed',
          actions: { type: 'keepError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    previewFailed: {
      tags: ['error', 'open'],
      on: {
        'run.retry': { target: 'previewing', actions: assign({ error: null }) },
        'run.abort': 'idle',
      },
    },
    /** No approved item waits for an invoice: nothing to confirm. */
    nothingDue: {
      tags: ['open', 'nothingDue'],
      on: { 'run.abort': 'idle' },
    },
    /** "N Positionen für M Zahler: Rechnungen erstellen?" */
    confirming: {
      tags: ['open', 'question', 'confirming'],
      on: {
        'run.issueWithoutAddress': {
          actions: assign({ issueWithoutAddress: ({ event }) => event.value }),
        },
        'run.confirm': {
          guard: 'ready',
          target: 'running',
          actions: assign({ idempotencyKey: () => crypto.randomUUID() }),
        },
        'run.abort': 'idle',
      },
    },
    running: {
      tags: ['busy', 'open', 'question', 'running'],
      invoke: {
        id: 'runInvoices',
        src: 'runInvoices',
        input: ({ context }) => ({
          idempotencyKey: context.idempotencyKey!,
          issueWithoutAddress: context.issueWithoutAddress,
        }),
        onDone: [
          {
            guard: { type: 'queued', params: ({ event }) => ({ outcome: event.output }) },
            target: 'queued',
            actions: assign({
              run: ({ event }) => (event.output.kind === 'queued' ? event.output.run : null),
            }),
          },
          {
            target: 'done',
            actions: [
              assign({
                result: ({ event }) =>
                  event.output.kind === 'issued' ? event.output.result : null,
              }),
              {
                type: 'notifyDone',
                params: ({ event }) => ({
                  count: event.output.kind === 'issued' ? event.output.result.invoices.length : 0,
                }),
              },
            ],
          },
        ],
        onError: {
          target: 'failed',
          actions: { type: 'keepError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    /** A large run works in the background: its progress, asked for again and again. */
    queued: {
      tags: ['busy', 'open', 'running', 'queued'],
      initial: 'waiting',
      states: {
        waiting: {
          after: { pollInterval: 'polling' },
        },
        polling: {
          invoke: {
            id: 'loadRun',
            src: 'loadRun',
            input: ({ context }) => ({ id: context.run!.id }),
            onDone: [
              {
                guard: { type: 'runDone', params: ({ event }) => ({ run: event.output }) },
                target: '#invoiceRun.done',
                actions: [
                  { type: 'keepFinishedRun', params: ({ event }) => ({ run: event.output }) },
                  {
                    type: 'notifyDone',
                    params: ({ event }) => ({ count: event.output.invoiceCount }),
                  },
                ],
              },
              {
                guard: { type: 'runFailed', params: ({ event }) => ({ run: event.output }) },
                target: '#invoiceRun.jobFailed',
                actions: [
                  { type: 'keepFinishedRun', params: ({ event }) => ({ run: event.output }) },
                  {
                    type: 'notifyDone',
                    params: ({ event }) => ({ count: event.output.invoiceCount }),
                  },
                ],
              },
              { target: 'waiting', actions: assign({ run: ({ event }) => event.output }) },
            ],
            // A lost answer: the run goes on on the server; ask again.
            onError: 'waiting',
          },
        },
      },
    },
    /** The job stopped: what it issued is kept (and listed), the rest stays due for a new run. */
    jobFailed: {
      tags: ['error', 'open', 'jobFailed'],
      on: {
        'run.abort': { target: 'idle', actions: 'reset' },
        'run.dismiss': { target: 'idle', actions: 'reset' },
      },
    },
    /** The run's answer did not arrive: retry with the same key, or give up. */
    failed: {
      tags: ['error', 'open', 'question'],
      on: {
        'run.retry': { target: 'running', actions: assign({ error: null }) },
        'run.abort': 'idle',
      },
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
