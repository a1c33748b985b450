import type { Config } from '../../config';
import type { InvoiceLine, InvoiceRecipient, InvoiceVatGroup } from '../../db/schema/index';

/** The seller as § 14 Abs. 4 Nr. 1 and 2 UStG wants it, from the configuration. */
export interface Practice {
  name: string;
  street: string;
  postalCode: string;
  city: string;
  taxNumber: string;
  vatId: string | undefined;
  email: string;
  phone: string;
  iban: string;
  paymentDays: number;
}

export const practiceOf = (config: Config): Practice => ({
  name: config.PRACTICE_NAME,
  street: config.PRACTICE_STREET,
  postalCode: config.PRACTICE_POSTAL_CODE,
  city: config.PRACTICE_CITY,
  taxNumber: config.PRACTICE_TAX_NUMBER,
  vatId: config.PRACTICE_VAT_ID,
  email: config.PRACTICE_EMAIL,
  phone: config.PRACTICE_PHONE,
  iban: config.PRACTICE_IBAN,
  paymentDays: config.INVOICE_PAYMENT_DAYS,
});

/** Everything printed on an invoice or cancellation invoice, fixed at issue. */
export interface InvoiceDocument {
  number: string;
  kind: 'invoice' | 'cancellation';
  invoiceDate: string;
  dueDate: string;
  serviceFrom: string;
  serviceTo: string;
  recipient: InvoiceRecipient;
  lines: InvoiceLine[];
  vatGroups: InvoiceVatGroup[];
  netCents: number;
  vatCents: number;
  grossCents: number;
  /** The cancelled invoice's number and date (cancellation invoices only). */
  cancels: { number: string; invoiceDate: string } | null;
  cancellationReason: string | null;
}
