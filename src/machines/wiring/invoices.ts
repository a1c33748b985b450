import { Temporal } from '@js-temporal/polyfill';
import {
  cancelInvoiceActor,
  downloadInvoiceActor,
  exportDatevActor,
  loadInvoiceActor,
  loadInvoiceRunActor,
  previewInvoiceRunActor,
  runInvoicesActor,
  sendInvoiceActor,
} from '../actors/staff/invoices';
import { datevExportMachine, previousMonth } from '../datev-export.machine';
import { invoiceDetailMachine } from '../invoice-detail.machine';
import { invoiceRunMachine } from '../invoice-run.machine';
import type { RouteEffects } from './effects';

/** The invoice screens (`/billing/invoices…`) wired to the API and the toasts. */

/** "Rechnungslauf starten"; `onDone` reloads the list. */
export const wireInvoiceRun = ({ api }: RouteEffects, onDone: () => void) =>
  invoiceRunMachine.provide({
    actors: {
      previewRun: previewInvoiceRunActor(api),
      runInvoices: runInvoicesActor(api),
      loadRun: loadInvoiceRunActor(api),
    },
    actions: { notifyDone: () => onDone() },
  });

/** "DATEV-Export"; the range starts as last month (Berlin). */
export const wireDatevExport = ({ api }: RouteEffects) =>
  datevExportMachine.provide({ actors: { exportDatev: exportDatevActor(api) } });

export const datevStartRange = () => previousMonth(Temporal.Now.plainDateISO('Europe/Berlin'));

/** One invoice: downloads, send, Storno. */
export const wireInvoiceDetail = ({ api, toast }: RouteEffects) =>
  invoiceDetailMachine.provide({
    actors: {
      loadDetail: loadInvoiceActor(api),
      downloadDocument: downloadInvoiceActor(api),
      sendInvoice: sendInvoiceActor(api),
      cancelInvoice: cancelInvoiceActor(api),
    },
    actions: {
      notifySent: (_, values) =>
        toast({ kind: 'success', messageKey: 'invoices:toasts.sent', values }),
      notifyCancelled: (_, values) =>
        toast({ kind: 'success', messageKey: 'invoices:toasts.cancelled', values }),
    },
  });
