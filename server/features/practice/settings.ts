import { eq, sql } from 'drizzle-orm';
import { electronicFormatIBAN, isValidIBAN } from 'ibantools';
import type { components } from '../../../shared/contract/product';
import type { Config } from '../../config';
import type { Db, Tx } from '../../db/client';
import { practiceSettings } from '../../db/schema/index';
import { badRequest } from '../../http/problem';

/**
 * The practice settings: one row, maintained by a SUPERADMIN. Everything that names the practice
 * reads them here: the legal pages, the invoices (PDF and XRechnung seller), the signature and
 * sender name of e-mails. The server's PRACTICE_* settings are only the defaults of an installation
 * whose settings were never saved (docs/decisions/0053-practice-settings-and-legal-pages.md).
 */
/** The contract's shape, so the settings cannot drift from what the API answers. */
export type PracticeSettings = components['schemas']['PracticeSettings'];

type Row = typeof practiceSettings.$inferSelect;
export type PracticeConfig = Pick<
  Config,
  | 'PRACTICE_NAME'
  | 'PRACTICE_STREET'
  | 'PRACTICE_POSTAL_CODE'
  | 'PRACTICE_CITY'
  | 'PRACTICE_EMAIL'
  | 'PRACTICE_PHONE'
  | 'PRACTICE_TAX_NUMBER'
  | 'PRACTICE_VAT_ID'
  | 'PRACTICE_IBAN'
>;

/** The settings of an installation that never saved its own: the PRACTICE_* settings. */
export const defaultSettings = (config: PracticeConfig): PracticeSettings => ({
  name: config.PRACTICE_NAME,
  street: config.PRACTICE_STREET,
  postalCode: config.PRACTICE_POSTAL_CODE,
  city: config.PRACTICE_CITY,
  email: config.PRACTICE_EMAIL,
  phone: config.PRACTICE_PHONE,
  managingPerson: null,
  registerCourt: null,
  registerNumber: null,
  vatId: config.PRACTICE_VAT_ID ?? null,
  taxNumber: config.PRACTICE_TAX_NUMBER,
  iban: config.PRACTICE_IBAN,
  dpoName: null,
  dpoEmail: null,
  supervisoryAuthority: null,
  updatedAt: null,
});

const fromRow = (row: Row): PracticeSettings => ({
  name: row.name,
  street: row.street,
  postalCode: row.postalCode,
  city: row.city,
  email: row.email,
  phone: row.phone,
  managingPerson: row.managingPerson,
  registerCourt: row.registerCourt,
  registerNumber: row.registerNumber,
  vatId: row.vatId,
  taxNumber: row.taxNumber,
  iban: row.iban,
  dpoName: row.dpoName,
  dpoEmail: row.dpoEmail,
  supervisoryAuthority: row.supervisoryAuthority,
  updatedAt: row.updatedAt,
});

/** The practice as it is now (the saved settings, or the defaults). */
export async function loadPractice(db: Db | Tx, config: PracticeConfig): Promise<PracticeSettings> {
  const [row] = await db.select().from(practiceSettings).where(eq(practiceSettings.id, 1));
  return row ? fromRow(row) : defaultSettings(config);
}

/** The practice's name, as messages sign and send with it. */
export const practiceName = async (db: Db | Tx, config: PracticeConfig) =>
  (await loadPractice(db, config)).name;

/** Whether an XRechnung can name the seller as rule BR-CO-26 asks (BT-30 or BT-31). */
export const hasSellerIdentifier = (p: Pick<PracticeSettings, 'vatId' | 'registerNumber'>) =>
  !!(p.vatId || p.registerNumber);

export type SettingsChange = Partial<Omit<PracticeSettings, 'updatedAt'>>;

const REQUIRED = ['name', 'street', 'postalCode', 'city', 'email', 'phone', 'iban'] as const;
const OPTIONAL = [
  'managingPerson',
  'registerCourt',
  'registerNumber',
  'vatId',
  'taxNumber',
  'dpoName',
  'dpoEmail',
  'supervisoryAuthority',
] as const;

/**
 * The change as stored: texts trimmed, blank optional texts null; 400 naming the field for
 * what the contract cannot say (blank after trimming, postal code, VAT id, IBAN check digits,
 * neither tax number nor VAT id, a register number without its court).
 */
export function normalizeChange(body: SettingsChange, before: PracticeSettings): SettingsChange {
  const change: SettingsChange = {};
  for (const field of REQUIRED) {
    const value = body[field];
    if (value === undefined) continue;
    const trimmed = value.trim();
    if (!trimmed) throw badRequest(field, 'value_missing', `${field} must not be blank`);
    change[field] = trimmed;
  }
  for (const field of OPTIONAL) {
    const value = body[field];
    if (value === undefined) continue;
    change[field] = value === null ? null : value.trim() || null;
  }
  if (change.postalCode !== undefined && !/^[0-9]{5}$/.test(change.postalCode)) {
    throw badRequest('postalCode', 'invalid_postal_code', 'A German postal code has five digits');
  }
  if (change.vatId) {
    change.vatId = change.vatId.replace(/\s+/g, '').toUpperCase();
    if (!/^[A-Z]{2}[0-9A-Z]{2,13}$/.test(change.vatId)) {
      throw badRequest(
        'vatId',
        'invalid_vat_id',
        'A VAT id is a country code and 2 to 13 letters or digits (DE123456789)',
      );
    }
  }
  if (change.iban !== undefined) {
    const iban = electronicFormatIBAN(change.iban) ?? '';
    if (!isValidIBAN(iban))
      throw badRequest('iban', 'invalid_iban', 'The IBAN is not valid (check digits)');
    change.iban = iban;
  }
  const after = { ...before, ...change };
  if (!after.taxNumber && !after.vatId) {
    throw badRequest(
      'taxNumber',
      'value_missing',
      'An invoice needs the tax number or the VAT id (§ 14 Abs. 4 Nr. 2 UStG)',
    );
  }
  if (after.registerNumber && !after.registerCourt) {
    throw badRequest(
      'registerCourt',
      'value_missing',
      'A register number needs its register court',
    );
  }
  return change;
}

/** Saves the whole set (the first save writes the defaults with the change). */
export async function saveSettings(
  tx: Tx,
  settings: Omit<PracticeSettings, 'updatedAt'>,
  actorUserId: string | null,
) {
  const values = { ...settings, updatedById: actorUserId, updatedAt: sql`now()` };
  const [row] = await tx
    .insert(practiceSettings)
    .values({ id: 1, ...values })
    .onConflictDoUpdate({ target: practiceSettings.id, set: values })
    .returning();
  return fromRow(row!);
}
