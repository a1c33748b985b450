// @vitest-environment node
import { Temporal } from '@js-temporal/polyfill';
import { expect, it } from 'vitest';
import type { components } from '../../shared/contract/product';
import { datevExportMachine, previousMonth } from '../../src/machines/datev-export.machine';
import { invoiceDetailMachine } from '../../src/machines/invoice-detail.machine';
import { invoiceRunMachine } from '../../src/machines/invoice-run.machine';
import { describeModel, done, failed, startMachine } from '../support/model';

/**
 * Model-based tests of the invoice screens' machines: the run (count, question, run, result;
 * nothing due; failures with retry under the same key), one invoice (downloads, send with the
 * address named, Storno with the link to the cancellation invoice), and the DATEV export
 * (range check, download, failure). Each state is checked in what the page shows (tags,
 * `can()`, context) and in the calls that went out.
 */
type Invoice = components['schemas']['Invoice'];

const ID = '00000000-0000-4000-8000-000000000001';
const STORNO_ID = '00000000-0000-4000-8000-000000000002';
const invoice = (over: Partial<Invoice> = {}): Invoice => ({
  id: ID,
  number: '2026-00001',
  kind: 'invoice',
  status: 'issued',
  payerKind: 'client',
  recipientName: 'Jürgen Müller',
  invoiceDate: '2026-11-27',
  serviceFrom: '2026-11-02',
  serviceTo: '2026-11-20',
  netCents: 10000,
  vatCents: 1900,
  grossCents: 11900,
  lineCount: 1,
  hasXRechnung: false,
  cancelsInvoiceId: null,
  cancelledByInvoiceId: null,
  sentAt: null,
  sentTo: null,
  cancelledAt: null,
  createdAt: '2026-11-27T10:00:00Z',
  recipient: {
    name: 'Jürgen Müller',
    street: 'Hauptstr. 1',
    postalCode: '10115',
    city: 'Berlin',
    country: 'DE',
    email: 'juergen@example.com',
    reference: null,
  },
  lines: [],
  vatGroups: [],
  cancellationReason: null,
  ...over,
});
const ISSUED = invoice();
const SENT = invoice({
  status: 'sent',
  sentAt: '2026-11-27T11:00:00Z',
  sentTo: 'juergen@example.com',
});
const CANCELLED = invoice({ status: 'cancelled', cancelledByInvoiceId: STORNO_ID });
const STORNO = invoice({
  id: STORNO_ID,
  number: '2026-00002',
  kind: 'cancellation',
  cancelsInvoiceId: ID,
  grossCents: -11900,
});

/* ------------------------------------------------------------------------------------------ */

const PREVIEW = {
  itemCount: 5,
  payerCount: 2,
  grossCents: 59500,
  payersWithoutAddress: [],
  sellerIdentifierMissing: false,
};
/** A sponsor without an address among the payers: confirmed only by an explicit choice. */
const GAPS = {
  ...PREVIEW,
  payersWithoutAddress: [
    {
      payerKind: 'sponsor' as const,
      name: 'Firma',
      catalog: 'campaign' as const,
      catalogId: null,
      missing: ['street' as const],
      itemCount: 1,
    },
  ],
};
/** No seller identifier for the XRechnung (BR-CO-26): no run at all. */
const BLOCKED = { ...PREVIEW, sellerIdentifierMissing: true };
const RESULT = {
  itemCount: 5,
  invoices: [ISSUED, { ...ISSUED, id: STORNO_ID, number: '2026-00002' }],
};
const ISSUED_NOW = { kind: 'issued', result: RESULT };
const RUN_ID = '00000000-0000-4000-8000-0000000000aa';
const queuedRun = (
  over: Partial<components['schemas']['InvoiceRun']> = {},
): components['schemas']['InvoiceRun'] => ({
  id: RUN_ID,
  status: 'queued',
  payerCount: 2,
  dueItemCount: 5,
  itemCount: 0,
  invoiceCount: 0,
  invoices: [],
  error: null,
  createdAt: '2026-11-27T10:00:00Z',
  finishedAt: null,
  ...over,
});
const QUEUED = { kind: 'queued', run: queuedRun() };
const HALF = queuedRun({ status: 'running', itemCount: 2, invoiceCount: 1 });
const JOB_DONE = queuedRun({
  status: 'done',
  itemCount: 5,
  invoiceCount: 2,
  invoices: RESULT.invoices,
  finishedAt: '2026-11-27T10:01:00Z',
});
const JOB_FAILED = queuedRun({
  status: 'failed',
  itemCount: 2,
  invoiceCount: 1,
  invoices: [ISSUED],
  error: 'Interner Fehler beim Rechnungslauf',
  finishedAt: '2026-11-27T10:01:00Z',
});
const POLL = { type: 'xstate.after.pollInterval.invoiceRun.queued.waiting' };

describeModel('invoice run machine, model-based', {
  machine: invoiceRunMachine,
  plans: [
    {
      events: [
        { type: 'run.start' },
        done('previewRun', PREVIEW),
        done('previewRun', {
          itemCount: 0,
          payerCount: 0,
          grossCents: 0,
          payersWithoutAddress: [],
          sellerIdentifierMissing: false,
        }),
        failed('previewRun', { code: 'network_error' }),
        { type: 'run.confirm' },
        { type: 'run.abort' },
        { type: 'run.retry' },
        done('runInvoices', ISSUED_NOW),
        failed('runInvoices', { code: 'network_error' }),
        { type: 'run.dismiss' },
      ],
      walks: [
        // Payers without an address: no run until the person chooses to issue anyway; the choice goes with the run.
        [
          { type: 'run.start' },
          done('previewRun', GAPS),
          { type: 'run.issueWithoutAddress', value: true },
          { type: 'run.confirm' },
          done('runInvoices', ISSUED_NOW),
        ],
        // Without the practice's seller identifier nothing can be confirmed, whatever is chosen.
        [
          { type: 'run.start' },
          done('previewRun', BLOCKED),
          { type: 'run.issueWithoutAddress', value: true },
          { type: 'run.abort' },
        ],
        // A failed run is retried under the same key and then issues its invoices.
        [
          { type: 'run.start' },
          done('previewRun', PREVIEW),
          { type: 'run.confirm' },
          failed('runInvoices', { code: 'network_error' }),
          { type: 'run.retry' },
          done('runInvoices', ISSUED_NOW),
        ],
        // A large run is queued: progress is asked for until the job is done (a lost answer is asked again).
        [
          { type: 'run.start' },
          done('previewRun', PREVIEW),
          { type: 'run.confirm' },
          done('runInvoices', QUEUED),
          POLL,
          done('loadRun', HALF),
          POLL,
          failed('loadRun', { code: 'network_error' }),
          POLL,
          done('loadRun', JOB_DONE),
        ],
        // The job stops half way: what it issued is listed, the failure said.
        [
          { type: 'run.start' },
          done('previewRun', PREVIEW),
          { type: 'run.confirm' },
          done('runInvoices', QUEUED),
          POLL,
          done('loadRun', JOB_FAILED),
          { type: 'run.dismiss' },
        ],
      ],
    },
  ],
  start: () => {
    const notified: number[] = [];
    const started = startMachine(invoiceRunMachine, {
      actions: { notifyDone: (_: unknown, p: { count: number }) => void notified.push(p.count) },
    });
    return Object.assign(started, { notified });
  },
  states: {
    'invoiceRun.idle': (s) => {
      expect(s.hasTag('open')).toBe(false);
      expect(s.context.result).toBeNull();
      expect(s.can({ type: 'run.start' })).toBe(true);
    },
    'invoiceRun.previewing': (s, run) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(s.hasTag('checking')).toBe(true);
      expect(run.fakes.previewRun!.pending()).toBe(1);
      expect(s.can({ type: 'run.confirm' })).toBe(false);
    },
    'invoiceRun.previewFailed': (s) => {
      expect(s.context.error?.code).toBe('network_error');
      expect(s.can({ type: 'run.retry' })).toBe(true);
      expect(s.can({ type: 'run.confirm' })).toBe(false);
    },
    'invoiceRun.nothingDue': (s) => {
      expect(s.hasTag('nothingDue')).toBe(true);
      expect(s.context.preview?.itemCount).toBe(0);
      expect(s.can({ type: 'run.confirm' })).toBe(false);
    },
    'invoiceRun.confirming': (s, run) => {
      const preview = s.context.preview!;
      expect([PREVIEW, GAPS, BLOCKED]).toContainEqual(preview);
      expect(s.hasTag('question')).toBe(true);
      expect(s.hasTag('confirming')).toBe(true);
      const ready =
        !preview.sellerIdentifierMissing &&
        (preview.payersWithoutAddress.length === 0 || s.context.issueWithoutAddress);
      expect(s.can({ type: 'run.confirm' })).toBe(ready);
      expect(run.fakes.runInvoices!.calls).toHaveLength(0);
    },
    'invoiceRun.running': (s, run) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(s.can({ type: 'run.abort' })).toBe(false);
      const calls = run.fakes.runInvoices!.calls as Array<{
        idempotencyKey: string;
        issueWithoutAddress: boolean;
      }>;
      // The explicit choice about payers without an address goes with the run.
      expect(calls.at(-1)!.issueWithoutAddress).toBe(s.context.issueWithoutAddress);
      // Every attempt of one confirmed run carries the same key.
      expect(new Set(calls.map((c) => c.idempotencyKey)).size).toBe(1);
      expect(calls.at(-1)!.idempotencyKey).toBe(s.context.idempotencyKey);
    },
    'invoiceRun.failed': (s) => {
      expect(s.context.error?.code).toBe('network_error');
      expect(s.can({ type: 'run.retry' })).toBe(true);
      expect(s.hasTag('question')).toBe(true);
    },
    'invoiceRun.queued.waiting': (s) => {
      expect(s.hasTag('queued')).toBe(true);
      expect(s.hasTag('open')).toBe(true);
      expect(s.context.run?.id).toBe(RUN_ID);
      expect(s.can({ type: 'run.abort' })).toBe(false);
    },
    'invoiceRun.queued.polling': (s, run) => {
      expect(s.hasTag('queued')).toBe(true);
      expect((run.fakes.loadRun!.calls as Array<{ id: string }>).at(-1)).toEqual({ id: RUN_ID });
    },
    'invoiceRun.jobFailed': (s) => {
      expect(s.hasTag('error')).toBe(true);
      expect(s.context.run?.status).toBe('failed');
      expect(s.context.result?.invoices).toEqual([ISSUED]);
      expect(s.can({ type: 'run.dismiss' })).toBe(true);
    },
    'invoiceRun.done': (s, run) => {
      expect(s.context.result).toEqual(RESULT);
      expect(s.hasTag('open')).toBe(false);
      expect((run as unknown as { notified: number[] }).notified.at(-1)).toBe(2);
    },
  },
});

/* ------------------------------------------------------------------------------------------ */

const xrechnungInvoice = {
  ...ISSUED,
  payerKind: 'sponsor' as const,
  hasXRechnung: true,
  recipient: { ...ISSUED.recipient, email: null },
};

describeModel('invoice detail machine, model-based', {
  machine: invoiceDetailMachine,
  plans: [
    {
      input: { id: ID },
      events: [
        done('loadDetail', ISSUED),
        failed('loadDetail', { code: 'network_error' }),
        { type: 'detail.retry' },
        { type: 'download.start', document: 'pdf' },
        done('downloadDocument', null),
        failed('downloadDocument', { status: 404, code: 'not_found' }),
        { type: 'download.retry' },
        { type: 'download.dismiss' },
        { type: 'send.ask' },
        { type: 'send.confirm' },
        { type: 'send.abort' },
        { type: 'send.retry' },
        done('sendInvoice', SENT),
        failed('sendInvoice', { status: 409, code: 'invalid_transition' }),
        { type: 'cancel.ask' },
        { type: 'cancel.reason', reason: 'Falscher Betrag' },
        { type: 'cancel.confirm' },
        { type: 'cancel.abort' },
        { type: 'cancel.retry' },
        done('cancelInvoice', STORNO),
        failed('cancelInvoice', { status: 409, code: 'invoice_cancelled' }),
      ],
      serialize: (s) => ({
        value: s.value,
        status: s.context.record?.status,
        storno: !!s.context.storno,
      }),
      walks: [
        // Storno: the cancellation invoice is kept and the invoice loads again, now cancelled.
        [
          done('loadDetail', ISSUED),
          { type: 'cancel.ask' },
          { type: 'cancel.reason', reason: 'Falscher Betrag' },
          { type: 'cancel.confirm' },
          done('cancelInvoice', STORNO),
          done('loadDetail', CANCELLED),
        ],
        // An address edited after a failure goes back to the question.
        [
          done('loadDetail', ISSUED),
          { type: 'send.ask' },
          { type: 'send.confirm' },
          failed('sendInvoice', { status: 400, code: 'validation_failed' }),
          { type: 'send.email', email: 'neu@example.com' },
        ],
      ],
    },
    {
      name: 'a sponsor invoice without address',
      input: { id: ID },
      events: [
        done('loadDetail', xrechnungInvoice),
        { type: 'download.start', document: 'xrechnung' },
        done('downloadDocument', null),
        { type: 'send.ask' },
        { type: 'send.email', email: 'rechnung@firma.example' },
        { type: 'send.confirm' },
      ],
    },
  ],
  start: (plan) => {
    const sent: string[] = [];
    const cancelled: string[] = [];
    const started = startMachine(invoiceDetailMachine, {
      input: plan.input!,
      actions: {
        notifySent: (_: unknown, p: { email: string }) => void sent.push(p.email),
        notifyCancelled: (_: unknown, p: { stornoNumber: string }) =>
          void cancelled.push(p.stornoNumber),
      },
    });
    return Object.assign(started, { sent, cancelled });
  },
  states: {
    'invoiceDetail.loading': (s, run) => {
      expect(s.hasTag('loading')).toBe(true);
      expect(run.fakes.loadDetail!.calls.at(-1)).toEqual({ id: ID });
    },
    'invoiceDetail.failed': (s) => {
      expect(s.context.error?.code).toBe('network_error');
      expect(s.can({ type: 'detail.retry' })).toBe(true);
    },
    'invoiceDetail.shown.idle': (s) => {
      const r = s.context.record!;
      expect(s.can({ type: 'download.start', document: 'pdf' })).toBe(true);
      expect(s.can({ type: 'download.start', document: 'xrechnung' })).toBe(r.hasXRechnung);
      expect(s.can({ type: 'send.ask' })).toBe(r.status !== 'cancelled');
      expect(s.can({ type: 'cancel.ask' })).toBe(r.kind === 'invoice' && r.status !== 'cancelled');
      if (r.status === 'cancelled') expect(s.context.storno?.number).toBe('2026-00002');
    },
    'invoiceDetail.shown.downloading': (s, run) => {
      expect(s.hasTag('download')).toBe(true);
      expect(s.hasTag('busy')).toBe(true);
      const call = run.fakes.downloadDocument!.calls.at(-1) as { document: string; number: string };
      expect(call.number).toBe('2026-00001');
      expect(call.document).toBe(s.context.document);
      expect(s.can({ type: 'send.ask' })).toBe(false);
    },
    'invoiceDetail.shown.downloadFailed': (s) => {
      expect(s.context.actionError?.code).toBe('not_found');
      expect(s.can({ type: 'download.retry' })).toBe(true);
    },
    'invoiceDetail.shown.askingSend': (s, run) => {
      expect(s.hasTag('send')).toBe(true);
      const address = s.context.record!.recipient.email;
      // The recipient's address at first (or the last one used); the person may change it.
      if (address)
        expect([address, s.context.record!.sentTo, 'neu@example.com']).toContain(s.context.email);
      // No address, no question: the confirm waits for one.
      expect(s.can({ type: 'send.confirm' })).toBe(/@/.test(s.context.email));
      expect(run.fakes.sendInvoice!.calls.length).toBeLessThanOrEqual(1);
    },
    'invoiceDetail.shown.sending': (s, run) => {
      expect(s.hasTag('busy')).toBe(true);
      const call = run.fakes.sendInvoice!.calls.at(-1) as { email: string; idempotencyKey: string };
      expect(call.email).toBe(s.context.email);
      expect(call.idempotencyKey).toBe(s.context.idempotencyKey);
      expect(s.can({ type: 'send.abort' })).toBe(false);
    },
    'invoiceDetail.shown.sendFailed': (s) => {
      expect(['invalid_transition', 'validation_failed']).toContain(s.context.actionError?.code);
      expect(s.hasTag('actionError')).toBe(true);
      expect(s.can({ type: 'send.retry' })).toBe(true);
    },
    'invoiceDetail.shown.askingCancel': (s, run) => {
      expect(s.hasTag('cancel')).toBe(true);
      expect(s.can({ type: 'cancel.confirm' })).toBe(true);
      expect(run.fakes.cancelInvoice!.pending()).toBe(0);
    },
    'invoiceDetail.shown.cancelling': (s, run) => {
      const call = run.fakes.cancelInvoice!.calls.at(-1) as { id: string; reason?: string };
      expect(call.id).toBe(ID);
      expect(call.reason).toBe(s.context.reason.trim() || undefined);
    },
    'invoiceDetail.shown.cancelFailed': (s) => {
      expect(s.context.actionError?.code).toBe('invoice_cancelled');
      expect(s.can({ type: 'cancel.retry' })).toBe(true);
    },
  },
  finish: (run, path) => {
    const r = run as unknown as { sent: string[]; cancelled: string[] };
    const sends = path.steps.filter(
      (step) => step.event.type === 'xstate.done.actor.sendInvoice',
    ).length;
    const cancels = path.steps.filter(
      (step) => step.event.type === 'xstate.done.actor.cancelInvoice',
    ).length;
    expect(r.sent).toHaveLength(sends);
    expect(r.cancelled).toEqual(Array(cancels).fill('2026-00002'));
  },
});

/* ------------------------------------------------------------------------------------------ */

const RANGE = { fromDate: '2026-10-01', toDate: '2026-10-31' };

describeModel('DATEV export machine, model-based', {
  machine: datevExportMachine,
  plans: [
    {
      input: RANGE,
      events: [
        { type: 'datev.change', toDate: '2026-09-30' },
        { type: 'datev.change', toDate: '2026-10-31' },
        { type: 'datev.export' },
        done('exportDatev', null),
        failed('exportDatev', { code: 'network_error' }),
      ],
      serialize: (s) => ({ value: s.value, to: s.context.toDate }),
    },
  ],
  start: (plan) => startMachine(datevExportMachine, { input: plan.input! }),
  states: {
    'datevExport.editing': (s) => {
      expect(s.context.fromDate <= s.context.toDate).toBe(true);
      expect(s.can({ type: 'datev.export' })).toBe(true);
    },
    'datevExport.invalid': (s) => {
      expect(s.hasTag('invalidRange')).toBe(true);
      expect(s.can({ type: 'datev.export' })).toBe(false);
    },
    'datevExport.exporting': (s, run) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(run.fakes.exportDatev!.calls.at(-1)).toEqual(RANGE);
    },
    'datevExport.done': (s) => {
      expect(s.hasTag('done')).toBe(true);
      expect(s.can({ type: 'datev.export' })).toBe(true);
    },
    'datevExport.failed': (s) => {
      expect(s.context.error?.code).toBe('network_error');
      expect(s.can({ type: 'datev.export' })).toBe(true);
    },
  },
});

it('starts the DATEV range on the last calendar month', () => {
  expect(previousMonth(Temporal.PlainDate.from('2026-03-15'))).toEqual({
    fromDate: '2026-02-01',
    toDate: '2026-02-28',
  });
  expect(previousMonth(Temporal.PlainDate.from('2027-01-01'))).toEqual({
    fromDate: '2026-12-01',
    toDate: '2026-12-31',
  });
});
