import { describe, expect, it } from 'vitest';
import { decimal, euro, priceLines } from '../../server/features/invoices/money';

const line = (grossCents: number, vat: 'standard' | 'exempt' = 'standard') => ({
  billableItemId: '00000000-0000-4000-8000-000000000001',
  serviceDate: '2026-03-02',
  description: 'Termin',
  grossCents,
  vatTreatment: vat,
  vatRatePercent: vat === 'exempt' ? 0 : 19,
  vatExemptionReason: vat === 'exempt' ? 'Steuerfreie Heilbehandlung gem. § 4 Nr. 14 a UStG' : null,
});

describe('invoice amounts from gross items', () => {
  it('keeps the approved gross and splits net and VAT per rate', () => {
    const { vatGroups } = priceLines([line(11900), line(8000, 'exempt'), line(5950)]);
    expect(vatGroups).toEqual([
      expect.objectContaining({
        vatRatePercent: 19,
        grossCents: 17850,
        netCents: 15000,
        vatCents: 2850,
      }),
      expect.objectContaining({ vatRatePercent: 0, grossCents: 8000, netCents: 8000, vatCents: 0 }),
    ]);
  });

  it('makes the line nets add up to the group net when each line rounds', () => {
    // 3 × 1,00 € gross: each line 0,84 € net (0,8403…), the group 2,52 € (2,5210…).
    const { lines, vatGroups } = priceLines([line(100), line(100), line(100)]);
    expect(lines.reduce((s, l) => s + l.netCents, 0)).toBe(vatGroups[0]!.netCents);
    // 7 × 0,99 €: lines round to 0,83 each (5,81), the group to 5,82: one line takes the cent.
    const seven = priceLines(Array.from({ length: 7 }, () => line(99)));
    expect(seven.vatGroups[0]!.netCents).toBe(582);
    expect(seven.lines.reduce((s, l) => s + l.netCents, 0)).toBe(582);
  });

  it('prints German and XML amounts, negatives included', () => {
    expect(euro(123456789)).toBe('1.234.567,89 €');
    expect(euro(-19900)).toBe('-199,00 €');
    expect(decimal(-5)).toBe('-0.05');
  });
});
