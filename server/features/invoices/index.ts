/** The invoices feature's public face: the only module other parts of the server import. */
export { invoiceHandlers } from './handlers';
export { runInvoices } from './run';
