import type { InvoiceLine, InvoiceVatGroup } from '../../db/schema/index';

/** What an item contributes: its gross amount and the VAT it was billed with. */
export type LineInput = Omit<InvoiceLine, 'netCents'>;

const groupKey = (l: Pick<LineInput, 'vatTreatment' | 'vatRatePercent' | 'vatExemptionReason'>) =>
  `${l.vatTreatment}|${l.vatRatePercent}|${l.vatExemptionReason ?? ''}`;

/**
 * Items carry gross cents (what the rules always stored). Per VAT rate the invoice takes the
 * gross sum as given, so the payable amount is what was approved: net = round(gross × 100 /
 * (100 + rate)), VAT = gross − net. Line nets are rounded alike and the rounding rest goes onto
 * the group's largest line, so the line nets add up to the group's net (EN 16931 BR-CO-13).
 */
export function priceLines(inputs: readonly LineInput[]): {
  lines: InvoiceLine[];
  vatGroups: InvoiceVatGroup[];
} {
  const lines: InvoiceLine[] = inputs.map((l) => ({
    ...l,
    netCents: Math.round((l.grossCents * 100) / (100 + l.vatRatePercent)),
  }));
  const groups = new Map<string, InvoiceLine[]>();
  for (const line of lines) {
    const key = groupKey(line);
    groups.set(key, [...(groups.get(key) ?? []), line]);
  }
  const vatGroups: InvoiceVatGroup[] = [];
  for (const members of groups.values()) {
    const first = members[0]!;
    const grossCents = members.reduce((sum, l) => sum + l.grossCents, 0);
    const netCents = Math.round((grossCents * 100) / (100 + first.vatRatePercent));
    const rest = netCents - members.reduce((sum, l) => sum + l.netCents, 0);
    if (rest !== 0) {
      const largest = members.reduce((a, b) =>
        Math.abs(b.grossCents) > Math.abs(a.grossCents) ? b : a,
      );
      largest.netCents += rest;
    }
    vatGroups.push({
      vatTreatment: first.vatTreatment,
      vatRatePercent: first.vatRatePercent,
      vatExemptionReason: first.vatExemptionReason,
      netCents,
      vatCents: grossCents - netCents,
      grossCents,
    });
  }
  vatGroups.sort((a, b) => b.vatRatePercent - a.vatRatePercent);
  return { lines, vatGroups };
}

export const totalsOf = (groups: readonly InvoiceVatGroup[]) => ({
  netCents: groups.reduce((s, g) => s + g.netCents, 0),
  vatCents: groups.reduce((s, g) => s + g.vatCents, 0),
  grossCents: groups.reduce((s, g) => s + g.grossCents, 0),
});

/** 1234 → "12,34 €" (German notation, as printed on the invoice). */
export function euro(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const whole = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${sign}${whole},${String(abs % 100).padStart(2, '0')} €`;
}

/** 1234 → "12.34" (XML decimal). */
export const decimal = (cents: number) => {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
};

/** "2026-03-05" → "05.03.2026". */
export const germanDate = (iso: string) =>
  `${iso.slice(8, 10)}.${iso.slice(5, 7)}.${iso.slice(0, 4)}`;
