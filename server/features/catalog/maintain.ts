import { and, eq, ne, sql } from 'drizzle-orm';
import { billableItems, billingRules, campaigns, clients, insurers } from '../../db/schema/index';
import type { Tx } from '../../db/client';
import { badRequest, HttpProblem, notFound, type ConstraintProblems } from '../../http/problem';
import { compareInstants, instant } from '../../time';

/**
 * The maintained lists (insurers, campaigns): checks beyond the contract and the rename that
 * keeps clients findable. Clients store the insurer's name and the campaign's code as text
 * (docs/decisions/0046-catalog-by-name.md), so a rename rewrites that text in the same
 * transaction instead of leaving clients behind under a name no filter offers.
 */

type InsurerRow = typeof insurers.$inferSelect;
type CampaignRow = typeof campaigns.$inferSelect;

const taken = (code: string, field: string, detail: string) =>
  new HttpProblem(409, code, 'Conflict', detail, [{ field, code, message: detail }]);
const insurerNameTaken = () => taken('insurer_name_taken', 'name', 'Another insurer has this name');
const campaignCodeTaken = () =>
  taken('campaign_code_taken', 'code', 'Another campaign has this code');

/** Races past the checks here end on the unique indexes: they answer as the checks do. */
export const catalogConstraintProblems: ConstraintProblems = {
  insurers_name_key: insurerNameTaken,
  campaigns_code_key: campaignCodeTaken,
};

/** A trimmed text that must not be blank (the contract's minLength counts spaces). */
export function requiredTrimmed(value: string, field: string): string {
  const trimmed = value.trim();
  if (!trimmed) throw badRequest(field, 'value_missing', `${field} must not be blank`);
  return trimmed;
}

/** The invoice address fields a payer (insurer, campaign) may carry. */
export interface PayerAddressInput {
  street?: string | null | undefined;
  postalCode?: string | null | undefined;
  city?: string | null | undefined;
  country?: string | undefined;
  invoiceEmail?: string | null | undefined;
}

const blankToNull = (value: string | null | undefined) =>
  value === undefined ? undefined : value === null ? null : value.trim() || null;

/**
 * The address as stored: blanks become null, a German postal code must be five digits (400
 * postalCode). Only the fields the body names are returned, so an update leaves the others.
 */
export function payerAddress(body: PayerAddressInput, before: { country: string } | null) {
  const address = {
    street: blankToNull(body.street),
    postalCode: blankToNull(body.postalCode),
    city: blankToNull(body.city),
    country: body.country ?? (before ? undefined : 'DE'),
    invoiceEmail: blankToNull(body.invoiceEmail),
  };
  const country = address.country ?? before?.country ?? 'DE';
  if (country === 'DE' && address.postalCode && !/^[0-9]{5}$/.test(address.postalCode)) {
    throw badRequest('postalCode', 'invalid_postal_code', 'A German postal code has five digits');
  }
  return address;
}

export function checkCampaignDates(
  startsAt: string | null | undefined,
  endsAt: string | null | undefined,
) {
  if (startsAt && endsAt && compareInstants(instant(endsAt), instant(startsAt)) < 0) {
    throw badRequest('endsAt', 'value_too_small', 'endsAt must not lie before startsAt');
  }
}

async function insurerNameFree(tx: Tx, name: string, exceptId: string | null) {
  const [other] = await tx
    .select({ id: insurers.id })
    .from(insurers)
    .where(
      exceptId ? and(eq(insurers.name, name), ne(insurers.id, exceptId)) : eq(insurers.name, name),
    )
    .limit(1);
  if (other) throw insurerNameTaken();
}

async function campaignCodeFree(tx: Tx, code: string, exceptId: string | null) {
  const [other] = await tx
    .select({ id: campaigns.id })
    .from(campaigns)
    .where(
      exceptId
        ? and(eq(campaigns.code, code), ne(campaigns.id, exceptId))
        : eq(campaigns.code, code),
    )
    .limit(1);
  if (other) throw campaignCodeTaken();
}

/** Writes a renamed entry's new text onto the clients and billing rules with the old one; the number of clients. */
async function carryOver(
  tx: Tx,
  field: 'insurer' | 'campaign',
  from: string,
  to: string,
): Promise<number> {
  const moved = await tx
    .update(clients)
    .set({ [field]: to })
    .where(eq(clients[field], from))
    .returning({ id: clients.id });
  await tx
    .update(billingRules)
    .set({ [field]: to })
    .where(eq(billingRules[field], from));
  return moved.length;
}

export async function insertInsurer(
  tx: Tx,
  body: { name: string; ikNumber: string; active?: boolean } & PayerAddressInput,
): Promise<InsurerRow> {
  const name = requiredTrimmed(body.name, 'name');
  await insurerNameFree(tx, name, null);
  const [row] = await tx
    .insert(insurers)
    .values({
      name,
      ikNumber: body.ikNumber,
      active: body.active ?? true,
      ...payerAddress(body, null),
    })
    .returning();
  return row!;
}

/** Changes an insurer; a new name is carried onto the clients, rules and open items with the old one. */
export async function changeInsurer(
  tx: Tx,
  id: string,
  body: { name?: string; ikNumber?: string; active?: boolean } & PayerAddressInput,
): Promise<{ before: InsurerRow; after: InsurerRow; renamedClients: number }> {
  const [before] = await tx.select().from(insurers).where(eq(insurers.id, id)).for('update');
  if (!before) throw notFound('insurer');
  const name = body.name === undefined ? undefined : requiredTrimmed(body.name, 'name');
  if (name !== undefined && name !== before.name) await insurerNameFree(tx, name, id);
  const [after] = await tx
    .update(insurers)
    .set({ name, ikNumber: body.ikNumber, active: body.active, ...payerAddress(body, before) })
    .where(eq(insurers.id, id))
    .returning();
  let renamedClients = 0;
  if (name !== undefined && name !== before.name) {
    renamedClients = await carryOver(tx, 'insurer', before.name, name);
    await tx
      .update(billableItems)
      .set({ insurer: name })
      .where(
        and(eq(billableItems.insurer, before.name), sql`${billableItems.status} <> 'invoice_sent'`),
      );
  }
  return { before, after: after!, renamedClients };
}

export async function insertCampaign(
  tx: Tx,
  body: {
    code: string;
    name: string;
    description?: string | null;
    active?: boolean;
    startsAt?: string | null;
    endsAt?: string | null;
  } & PayerAddressInput,
): Promise<CampaignRow> {
  const name = requiredTrimmed(body.name, 'name');
  checkCampaignDates(body.startsAt, body.endsAt);
  await campaignCodeFree(tx, body.code, null);
  const [row] = await tx
    .insert(campaigns)
    .values({
      code: body.code,
      name,
      description: body.description?.trim() || null,
      active: body.active ?? true,
      startsAt: body.startsAt ?? null,
      endsAt: body.endsAt ?? null,
      ...payerAddress(body, null),
    })
    .returning();
  return row!;
}

/** Changes a campaign; a new code is carried onto the clients and rules with the old one. */
export async function changeCampaign(
  tx: Tx,
  id: string,
  body: {
    code?: string;
    name?: string;
    description?: string | null;
    active?: boolean;
    startsAt?: string | null;
    endsAt?: string | null;
  } & PayerAddressInput,
): Promise<{ before: CampaignRow; after: CampaignRow; renamedClients: number }> {
  const [before] = await tx.select().from(campaigns).where(eq(campaigns.id, id)).for('update');
  if (!before) throw notFound('campaign');
  const name = body.name === undefined ? undefined : requiredTrimmed(body.name, 'name');
  checkCampaignDates(
    body.startsAt === undefined ? before.startsAt : body.startsAt,
    body.endsAt === undefined ? before.endsAt : body.endsAt,
  );
  const code = body.code;
  if (code !== undefined && code !== before.code) await campaignCodeFree(tx, code, id);
  const [after] = await tx
    .update(campaigns)
    .set({
      code,
      name,
      description: body.description === undefined ? undefined : body.description?.trim() || null,
      active: body.active,
      startsAt: body.startsAt,
      endsAt: body.endsAt,
      ...payerAddress(body, before),
    })
    .where(eq(campaigns.id, id))
    .returning();
  let renamedClients = 0;
  if (code !== undefined && code !== before.code) {
    renamedClients = await carryOver(tx, 'campaign', before.code, code);
  }
  return { before, after: after!, renamedClients };
}
