import { inArray, or } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { campaigns, clients, insurers, type InvoiceRecipient } from '../../db/schema/index';

type PayerKind = 'client' | 'sponsor' | 'statutory_insurer' | 'private_insurer';
export interface PayerItem {
  clientId: string;
  payerKind: PayerKind;
  insurer: string | null;
}

/** Who an item's invoice goes to, and the key that puts items of one payer on one invoice. */
export interface Payer {
  key: string;
  payerKind: PayerKind;
  recipient: InvoiceRecipient;
  /** Where a sponsor's or insurer's address is kept (null id: not in the catalogue); null for clients. */
  catalog: { kind: 'insurer' | 'campaign'; id: string | null } | null;
}

/** What a sponsor's or insurer's invoice address lacks (§ 14 UStG address, XRechnung BT-49). */
export function missingAddress(
  payer: Payer,
): ('street' | 'postalCode' | 'city' | 'invoiceEmail')[] {
  if (payer.payerKind === 'client') return [];
  const r = payer.recipient;
  return [
    r.street ? null : ('street' as const),
    r.postalCode ? null : ('postalCode' as const),
    r.city ? null : ('city' as const),
    r.email ? null : ('invoiceEmail' as const),
  ].filter((f) => f !== null);
}

/**
 * Loads what the recipients need in three queries. Self-pay items go to the client; sponsor
 * items to the client's campaign (the sponsor, by code or name); insurer items to the insurer,
 * with its IK number as the buyer reference. Sponsors and insurers carry the postal address and
 * invoice e-mail recorded on /admin/campaigns and /admin/insurers (empty until someone records it).
 */
export async function payersOf(
  tx: Tx | Db,
  items: readonly PayerItem[],
): Promise<(item: PayerItem) => Payer> {
  const clientRows = items.length
    ? await tx
        .select()
        .from(clients)
        .where(inArray(clients.id, [...new Set(items.map((i) => i.clientId))]))
    : [];
  const byClient = new Map(clientRows.map((c) => [c.id, c]));
  const campaignNames = [
    ...new Set(clientRows.map((c) => c.campaign).filter((c): c is string => !!c)),
  ];
  const campaignRows = campaignNames.length
    ? await tx
        .select()
        .from(campaigns)
        .where(or(inArray(campaigns.code, campaignNames), inArray(campaigns.name, campaignNames)))
    : [];
  const insurerNames = [
    ...new Set(
      items
        .map((i) => i.insurer ?? byClient.get(i.clientId)?.insurer)
        .filter((n): n is string => !!n),
    ),
  ];
  const insurerRows = insurerNames.length
    ? await tx.select().from(insurers).where(inArray(insurers.name, insurerNames))
    : [];

  return (item) => {
    const client = byClient.get(item.clientId)!;
    const empty = { street: null, postalCode: null, city: null, country: 'DE', email: null };
    const addressOf = (
      row:
        | {
            street: string | null;
            postalCode: string | null;
            city: string | null;
            country: string;
            invoiceEmail: string | null;
          }
        | undefined,
    ) =>
      row
        ? {
            street: row.street,
            postalCode: row.postalCode,
            city: row.city,
            country: row.country,
            email: row.invoiceEmail,
          }
        : empty;
    if (item.payerKind === 'client') {
      return {
        key: `client:${client.id}`,
        payerKind: 'client',
        catalog: null,
        recipient: {
          name: `${client.firstName} ${client.lastName}`,
          street: client.street,
          postalCode: client.postalCode,
          city: client.city,
          country: client.country ?? 'DE',
          email: client.email,
          reference: null,
        },
      };
    }
    if (item.payerKind === 'sponsor') {
      const code = client.campaign ?? '';
      const campaign = campaignRows.find((c) => c.code === code || c.name === code);
      return {
        key: `sponsor:${campaign?.code ?? code}`,
        payerKind: 'sponsor',
        catalog: { kind: 'campaign', id: campaign?.id ?? null },
        recipient: {
          ...addressOf(campaign),
          name: campaign?.name ?? (code || 'Sponsor'),
          reference: campaign?.code ?? (code || null),
        },
      };
    }
    const name = item.insurer ?? client.insurer ?? '';
    const insurer = insurerRows.find((i) => i.name === name);
    return {
      key: `${item.payerKind}:${name}`,
      payerKind: item.payerKind,
      catalog: { kind: 'insurer', id: insurer?.id ?? null },
      recipient: {
        ...addressOf(insurer),
        name: name || 'Krankenversicherung',
        reference: insurer?.ikNumber ?? client.insurerCode,
      },
    };
  };
}
