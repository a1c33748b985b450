// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { zodFieldErrors } from '../../src/machines/record-form.machine';
import {
  billingRuleFormSchema,
  billingRuleFormValues,
  centsToEuro,
  euroToCents,
  newBillingRuleValues,
} from '../../src/forms/billing-rule-form';

/** The billing rule form: euros typed the German way, "any" as null, the checks the server also makes. */
const filled = {
  ...newBillingRuleValues(),
  name: 'Folgetermin',
  description: 'Coaching',
  amount: '80,00',
};

describe('billing rule form', () => {
  it('reads German euro amounts as cents and writes them back', () => {
    expect(euroToCents('80')).toBe(8000);
    expect(euroToCents('80,5')).toBe(8050);
    expect(euroToCents(' 1.234,56 € ')).toBe(123456);
    expect(euroToCents('80.00')).toBeNull();
    expect(euroToCents('abc')).toBeNull();
    expect(euroToCents('1,234')).toBeNull();
    expect(centsToEuro(123456)).toBe('1234,56');
    expect(centsToEuro(5)).toBe('0,05');
  });

  it('sends empty criteria as null (any) and yes/no as booleans', () => {
    const body = billingRuleFormSchema.parse({
      ...filled,
      noShow: 'true',
      sponsorPays: 'false',
      appointmentType: 'followup',
    });
    expect(body).toMatchObject({
      amountCents: 8000,
      appointmentType: 'followup',
      insurer: null,
      clientType: null,
      noShow: true,
      sponsorPays: false,
      cancelledLate: null,
      validFrom: null,
      vatTreatment: 'standard',
      vatExemptionReason: null,
      payerKind: 'client',
    });
  });

  it('names the field of each mistake with a code the page shows in German', () => {
    const result = billingRuleFormSchema.safeParse({ ...filled, name: ' ', amount: '80.00' });
    expect(result.success).toBe(false);
    expect(zodFieldErrors(result.error!)).toEqual({
      name: 'value_missing',
      amount: 'value_invalid_format',
    });
    const exempt = billingRuleFormSchema.safeParse({
      ...filled,
      vatTreatment: 'exempt',
      validFrom: '2026-02-01',
      validTo: '2026-01-01',
    });
    expect(zodFieldErrors(exempt.error!)).toEqual({
      vatExemptionReason: 'value_missing',
      validTo: 'end_before_start',
    });
    const tooMuch = billingRuleFormSchema.safeParse({ ...filled, amount: '1.000.000,01' });
    expect(zodFieldErrors(tooMuch.error!)).toEqual({ amount: 'value_too_large' });
  });

  it('drops a leftover exemption reason from a standard rule (the server refuses it)', () => {
    const body = billingRuleFormSchema.parse({
      ...filled,
      vatExemptionReason: '§ 4 Nr. 14 a UStG',
    });
    expect(body.vatExemptionReason).toBeNull();
    const exempt = billingRuleFormSchema.parse({
      ...filled,
      vatTreatment: 'exempt',
      vatExemptionReason: '§ 4 Nr. 14 a UStG',
    });
    expect(exempt).toMatchObject({
      vatTreatment: 'exempt',
      vatExemptionReason: '§ 4 Nr. 14 a UStG',
    });
  });

  it('loads a rule into the same values it would send back unchanged', () => {
    const body = billingRuleFormSchema.parse({ ...filled, noShow: 'false', validTo: '2026-12-31' });
    const values = billingRuleFormValues({
      ...(body as never as Record<string, unknown>),
      id: 'x',
      position: 0,
      version: 1,
      vatRatePercent: 19,
      createdAt: '',
      updatedAt: '',
    } as never);
    expect(billingRuleFormSchema.parse(values)).toEqual(body);
  });
});
