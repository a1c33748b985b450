/** The invoices feature's public face: the only module other parts of the server import. */
export { invoiceHandlers } from './handlers';
export { runInvoices } from './run';
// The invoice benchmark's floor renders the same documents without the database.
export { defaultPractice } from './document';
export { priceLines, totalsOf } from './money';
export { renderInvoicePdf } from './pdf';
export { invoiceJobs } from './run-job';
// The demo seed issues, sends and cancels invoices through the same calls as the screens.
export { cancelInvoice } from './storno';
export { sendInvoice } from './send';
export { practiceFor } from './document';
