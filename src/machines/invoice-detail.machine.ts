import { assign, fromPromise, setup } from 'xstate';
import type { components } from '../../shared/contract/product';
import { detailLoadStates, retryable, type RecordDetailContext } from './record-detail.machine';
import { machineErrorOf, type MachineError, notProvided } from './shared/failures';

/**
 * `/billing/invoices/:invoiceId` (ADMIN): one invoice, and what can be done with it.
 * - download its PDF, or its XRechnung where it has one;
 * - send it by e-mail: the address (the recipient's, editable) is named in the question; the
 *   answer is the invoice now `sent`;
 * - cancel it (Storno), with an optional reason: the answer is the cancellation invoice, kept
 *   to link to, and the invoice is loaded again (now `cancelled`).
 * A cancelled invoice offers neither (its cancellation invoice is sent instead), a
 * cancellation invoice cannot be cancelled. Failures stay in the question with retry.
 */
export type Invoice = components['schemas']['Invoice'];
export type InvoiceDocumentKind = 'pdf' | 'xrechnung';

export interface SendRequest {
  id: string;
  email: string;
  idempotencyKey: string;
}
export interface CancelRequest {
  id: string;
  reason: string | undefined;
  idempotencyKey: string;
}
export interface DownloadRequest {
  id: string;
  number: string;
  document: InvoiceDocumentKind;
}

export interface InvoiceDetailContext extends RecordDetailContext<Invoice> {
  /** The address the send question names (the recipient's at first). */
  email: string;
  /** The Storno's reason as typed (optional). */
  reason: string;
  idempotencyKey: string | null;
  /** The document being (or last) downloaded. */
  document: InvoiceDocumentKind | null;
  /** The cancellation invoice this page issued, to link to. */
  storno: Invoice | null;
  actionError: MachineError | null;
}

export type InvoiceDetailEvent =
  | { type: 'detail.retry' }
  | { type: 'download.start'; document: InvoiceDocumentKind }
  | { type: 'download.retry' }
  | { type: 'download.dismiss' }
  | { type: 'send.ask' }
  | { type: 'send.email'; email: string }
  | { type: 'send.confirm' }
  | { type: 'send.retry' }
  | { type: 'send.abort' }
  | { type: 'cancel.ask' }
  | { type: 'cancel.reason'; reason: string }
  | { type: 'cancel.confirm' }
  | { type: 'cancel.retry' }
  | { type: 'cancel.abort' };

/** Good enough to ask with; the server checks the address properly (400 naming `email`). */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const invoiceDetailMachine = setup({
  types: {
    context: {} as InvoiceDetailContext,
    events: {} as InvoiceDetailEvent,
    input: {} as { id: string },
    tags: {} as 'busy' | 'loading' | 'error' | 'download' | 'send' | 'cancel' | 'actionError',
  },
  actors: {
    loadDetail: fromPromise<Invoice, { id: string }>(notProvided('invoice detail', 'loadDetail')),
    downloadDocument: fromPromise<unknown, DownloadRequest>(
      notProvided('invoice detail', 'downloadDocument'),
    ),
    sendInvoice: fromPromise<Invoice, SendRequest>(notProvided('invoice detail', 'sendInvoice')),
    cancelInvoice: fromPromise<Invoice, CancelRequest>(
      notProvided('invoice detail', 'cancelInvoice'),
    ),
  },
  actions: {
    notifySent: (_, _params: { number: string; email: string }) => undefined,
    notifyCancelled: (_, _params: { number: string; stornoNumber: string }) => undefined,
    newKey: assign({ idempotencyKey: () => crypto.randomUUID() }),
    keepActionError: assign({
      actionError: (_, params: { error: unknown }) => machineErrorOf(params.error),
    }),
  },
  guards: {
    retryable,
    canSend: ({ context }) => context.record !== null && context.record.status !== 'cancelled',
    canCancel: ({ context }) =>
      context.record !== null &&
      context.record.kind === 'invoice' &&
      context.record.status !== 'cancelled',
    hasDocument: ({ context }, params: { document: InvoiceDocumentKind }) =>
      context.record !== null && (params.document === 'pdf' || context.record.hasXRechnung),
    emailValid: ({ context }) => EMAIL.test(context.email.trim()),
  },
}).createMachine({
  id: 'invoiceDetail',
  context: ({ input }) => ({
    id: input.id,
    record: null,
    error: null,
    email: '',
    reason: '',
    idempotencyKey: null,
    document: null,
    storno: null,
    actionError: null,
  }),
  initial: 'loading',
  states: {
    ...detailLoadStates<InvoiceDetailContext, InvoiceDetailEvent>('shown'),
    shown: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'download.start': {
              guard: { type: 'hasDocument', params: ({ event }) => ({ document: event.document }) },
              target: 'downloading',
              actions: assign({ document: ({ event }) => event.document, actionError: null }),
            },
            'send.ask': {
              guard: 'canSend',
              target: 'askingSend',
              actions: assign({
                email: ({ context }) =>
                  context.record!.sentTo ?? context.record!.recipient.email ?? '',
                actionError: null,
              }),
            },
            'cancel.ask': {
              guard: 'canCancel',
              target: 'askingCancel',
              actions: assign({ reason: '', actionError: null }),
            },
          },
        },
        downloading: {
          tags: ['busy', 'download'],
          invoke: {
            id: 'downloadDocument',
            src: 'downloadDocument',
            input: ({ context }) => ({
              id: context.id,
              number: context.record!.number,
              document: context.document!,
            }),
            onDone: 'idle',
            onError: {
              target: 'downloadFailed',
              actions: { type: 'keepActionError', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        downloadFailed: {
          tags: ['download', 'actionError'],
          on: {
            'download.retry': { target: 'downloading', actions: assign({ actionError: null }) },
            'download.dismiss': { target: 'idle', actions: assign({ actionError: null }) },
          },
        },
        /** "Rechnung … an <Adresse> senden?" with the address editable. */
        askingSend: {
          tags: ['send'],
          on: {
            'send.email': { actions: assign({ email: ({ event }) => event.email }) },
            'send.confirm': { guard: 'emailValid', target: 'sending', actions: 'newKey' },
            'send.abort': 'idle',
          },
        },
        sending: {
          tags: ['busy', 'send'],
          invoke: {
            id: 'sendInvoice',
            src: 'sendInvoice',
            input: ({ context }) => ({
              id: context.id,
              email: context.email.trim(),
              idempotencyKey: context.idempotencyKey!,
            }),
            onDone: {
              target: 'idle',
              actions: [
                assign({ record: ({ event }) => event.output }),
                {
                  type: 'notifySent',
                  params: ({ event, context }) => ({
                    number: event.output.number,
                    email: context.email.trim(),
                  }),
                },
              ],
            },
            onError: {
              target: 'sendFailed',
              actions: { type: 'keepActionError', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        sendFailed: {
          tags: ['send', 'actionError'],
          on: {
            'send.email': {
              target: 'askingSend',
              actions: assign({ email: ({ event }) => event.email, actionError: null }),
            },
            'send.retry': {
              guard: 'emailValid',
              target: 'sending',
              actions: assign({ actionError: null }),
            },
            'send.abort': { target: 'idle', actions: assign({ actionError: null }) },
          },
        },
        /** "Rechnung … stornieren?" with an optional reason. */
        askingCancel: {
          tags: ['cancel'],
          on: {
            'cancel.reason': { actions: assign({ reason: ({ event }) => event.reason }) },
            'cancel.confirm': { target: 'cancelling', actions: 'newKey' },
            'cancel.abort': 'idle',
          },
        },
        cancelling: {
          tags: ['busy', 'cancel'],
          invoke: {
            id: 'cancelInvoice',
            src: 'cancelInvoice',
            input: ({ context }) => ({
              id: context.id,
              reason: context.reason.trim() || undefined,
              idempotencyKey: context.idempotencyKey!,
            }),
            onDone: {
              // The invoice is `cancelled` now: load it again, and link to its Storno.
              target: '#invoiceDetail.loading',
              actions: [
                assign({ storno: ({ event }) => event.output }),
                {
                  type: 'notifyCancelled',
                  params: ({ event, context }) => ({
                    number: context.record!.number,
                    stornoNumber: event.output.number,
                  }),
                },
              ],
            },
            onError: {
              target: 'cancelFailed',
              actions: { type: 'keepActionError', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        cancelFailed: {
          tags: ['cancel', 'actionError'],
          on: {
            'cancel.retry': { target: 'cancelling', actions: assign({ actionError: null }) },
            'cancel.abort': { target: 'idle', actions: assign({ actionError: null }) },
          },
        },
      },
    },
  },
});
