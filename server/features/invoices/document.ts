import type { Config } from '../../config';
import type { Db, Tx } from '../../db/client';
import type { InvoiceLine, InvoiceRecipient, InvoiceVatGroup } from '../../db/schema/index';
import { conflict } from '../../http/problem';
import {
  defaultSettings,
  hasSellerIdentifier,
  loadPractice,
  type PracticeSettings,
} from '../practice/index';

/**
 * The seller as § 14 Abs. 4 Nr. 1 and 2 UStG wants it: the practice settings (the same the
 * imprint and the e-mails use) and the payment term of the server's configuration.
 */
export interface Practice extends Pick<
  PracticeSettings,
  | 'name'
  | 'street'
  | 'postalCode'
  | 'city'
  | 'taxNumber'
  | 'vatId'
  | 'registerCourt'
  | 'registerNumber'
  | 'email'
  | 'phone'
  | 'iban'
> {
  paymentDays: number;
}

const sellerOf = (p: PracticeSettings, config: Pick<Config, 'INVOICE_PAYMENT_DAYS'>): Practice => ({
  name: p.name,
  street: p.street,
  postalCode: p.postalCode,
  city: p.city,
  taxNumber: p.taxNumber,
  vatId: p.vatId,
  registerCourt: p.registerCourt,
  registerNumber: p.registerNumber,
  email: p.email,
  phone: p.phone,
  iban: p.iban,
  paymentDays: config.INVOICE_PAYMENT_DAYS,
});

/** The practice for the invoices issued or sent now. */
export const practiceFor = async (db: Db | Tx, config: Config): Promise<Practice> =>
  sellerOf(await loadPractice(db, config), config);

/** The practice of an installation that never saved its settings (the benchmark's floor). */
export const defaultPractice = (config: Config): Practice =>
  sellerOf(defaultSettings(config), config);

/**
 * An XRechnung must identify the seller by a seller identifier, legal registration identifier
 * or VAT identifier (EN 16931 rule BR-CO-26, fatal): without VAT id and register number in the
 * practice settings none is made, and the call that would make one is refused.
 */
export function requireSellerIdentifier(practice: Pick<Practice, 'vatId' | 'registerNumber'>) {
  if (!hasSellerIdentifier(practice)) {
    throw conflict(
      'seller_identifier_missing',
      'Für eine XRechnung fehlt in den Praxisdaten die USt-IdNr. oder die Handelsregisternummer (Pflichtregel BR-CO-26). Bitte unter Verwaltung → Praxisdaten ergänzen.',
    );
  }
}

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
