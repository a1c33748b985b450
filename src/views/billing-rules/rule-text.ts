import type { TFunction } from 'i18next';
import type { BillingRule } from '../../machines/actors/staff/billing-rules';

/** How a rule reads on the list: its set criteria, price, VAT and payer, in German. */

export const formatEuro = (cents: number): string =>
  new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' }).format(cents / 100);

const yesNo = (t: TFunction, value: boolean) =>
  value ? t('billingRules:yes') : t('billingRules:no');

/** "Terminart: Folgetermin · Nicht erschienen: ja"; only the criteria the rule sets. */
export function criteriaText(t: TFunction, rule: BillingRule): string {
  const parts: string[] = [];
  const c = (key: string, value: string) =>
    parts.push(`${t(`billingRules:criteria.${key}`)}: ${value}`);
  if (rule.appointmentType)
    c('appointmentType', t(`staff:appointmentTypes.${rule.appointmentType}`));
  if (rule.insurer) c('insurer', rule.insurer);
  if (rule.campaign) c('campaign', rule.campaign);
  if (rule.clientType) c('clientType', t(`billingRules:clientTypes.${rule.clientType}`));
  if (rule.sponsorPays !== null) c('sponsorPays', yesNo(t, rule.sponsorPays));
  if (rule.noShow !== null) c('noShow', yesNo(t, rule.noShow));
  if (rule.cancelledLate !== null) c('cancelledLate', yesNo(t, rule.cancelledLate));
  if (rule.validFrom)
    c('validFrom', new Date(`${rule.validFrom}T12:00:00Z`).toLocaleDateString('de-DE'));
  if (rule.validTo) c('validTo', new Date(`${rule.validTo}T12:00:00Z`).toLocaleDateString('de-DE'));
  return parts.length > 0 ? parts.join(' · ') : t('billingRules:anyCriteria');
}

/** "80,00 € · 19 % USt. · Rechnung an Klient:in (Selbstzahler)". */
export function outcomeText(t: TFunction, rule: BillingRule): string {
  const vat =
    rule.vatTreatment === 'exempt'
      ? `${t('billingRules:vat.exempt')} (${rule.vatExemptionReason ?? ''})`
      : t('billingRules:vat.standard');
  return [
    formatEuro(rule.amountCents),
    vat,
    `${t('billingRules:payer')} ${t(`billingRules:payerKinds.${rule.payerKind}`)}`,
  ].join(' · ');
}

/** The failed criteria of a preview line, by their German names. */
export const failedText = (t: TFunction, criteria: readonly string[]): string =>
  criteria.map((c) => t(`billingRules:criteria.${c}`, { defaultValue: c })).join(', ');
