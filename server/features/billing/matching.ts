import { Temporal } from '@js-temporal/polyfill';
import type { components } from '../../../shared/contract/product';
import { berlinDate } from '../../../shared/time';

type Schemas = components['schemas'];
export type Occasion = Schemas['BillableItemOccasion'];
export type PayerKind = Schemas['BillingPayerKind'];
export type ValidationError = Schemas['BillableItemValidationError'];

/** What a rule's criteria are compared with: the appointment and its client. */
export interface BillingFacts {
  appointmentType: Schemas['AppointmentType'];
  insurer: string | null;
  campaign: string | null;
  clientType: Schemas['ClientType'];
  sponsorPays: boolean;
  occasion: Occasion;
  /** Europe/Berlin local date of the appointment's start, YYYY-MM-DD. */
  serviceDate: string;
}

export interface RuleCriteria {
  active: boolean;
  appointmentType: Schemas['AppointmentType'] | null;
  insurer: string | null;
  campaign: string | null;
  clientType: Schemas['ClientType'] | null;
  sponsorPays: boolean | null;
  noShow: boolean | null;
  cancelledLate: boolean | null;
  validFrom: string | null;
  validTo: string | null;
}

export type Criterion = Exclude<keyof RuleCriteria, 'active'>;

/** The set (non-null) criteria of `rule` that `facts` do not meet; empty means it matches. */
export function failedCriteria(rule: RuleCriteria, facts: BillingFacts): Criterion[] {
  const failed: Criterion[] = [];
  const check = (name: Criterion, wanted: unknown, actual: unknown) => {
    if (wanted !== null && wanted !== actual) failed.push(name);
  };
  check('appointmentType', rule.appointmentType, facts.appointmentType);
  check('insurer', rule.insurer, facts.insurer);
  check('campaign', rule.campaign, facts.campaign);
  check('clientType', rule.clientType, facts.clientType);
  check('sponsorPays', rule.sponsorPays, facts.sponsorPays);
  check('noShow', rule.noShow, facts.occasion === 'no_show');
  check('cancelledLate', rule.cancelledLate, facts.occasion === 'cancelled_late');
  // ISO dates compare as strings.
  if (rule.validFrom !== null && facts.serviceDate < rule.validFrom) failed.push('validFrom');
  if (rule.validTo !== null && facts.serviceDate > rule.validTo) failed.push('validTo');
  return failed;
}

export type Evaluation<R> = {
  rule: R;
  outcome: 'matched' | 'not_matched' | 'inactive';
  failedCriteria: Criterion[];
};

/**
 * The rules in `ordered` (by position) up to the first active one whose criteria all match,
 * each with why it did or did not apply. The match, if any, is the last entry.
 */
export function evaluateRules<R extends RuleCriteria>(
  ordered: readonly R[],
  facts: BillingFacts,
): { match: R | null; trail: Evaluation<R>[] } {
  const trail: Evaluation<R>[] = [];
  for (const rule of ordered) {
    if (!rule.active) {
      trail.push({ rule, outcome: 'inactive', failedCriteria: [] });
      continue;
    }
    const failed = failedCriteria(rule, facts);
    trail.push({
      rule,
      outcome: failed.length ? 'not_matched' : 'matched',
      failedCriteria: failed,
    });
    if (!failed.length) return { match: rule, trail };
  }
  return { match: null, trail };
}

export interface AppointmentState {
  startDate: string;
  endDate: string;
  noShow: boolean;
  cancelledAt: string | null;
  isProvisional: boolean;
}

/**
 * Why an appointment is billed, or null while it is not (yet): cancelled inside the client
 * change notice (late), marked no-show, or over (its end has passed). A cancellation in good
 * time and a hold that was never confirmed are not billed.
 */
export function occasionOf(
  appointment: AppointmentState,
  now: Temporal.Instant,
  changeNoticeHours: number,
): Occasion | null {
  const start = Temporal.Instant.from(appointment.startDate);
  if (appointment.cancelledAt) {
    const noticeStarts = start.subtract({ hours: changeNoticeHours });
    const late =
      Temporal.Instant.compare(Temporal.Instant.from(appointment.cancelledAt), noticeStarts) > 0;
    return late ? 'cancelled_late' : null;
  }
  if (appointment.isProvisional) return null;
  if (appointment.noShow) return 'no_show';
  return Temporal.Instant.compare(Temporal.Instant.from(appointment.endDate), now) <= 0
    ? 'completed'
    : null;
}

export const serviceDateOf = (startDate: string) => berlinDate(startDate).toString();

export interface ClientBillingData {
  hasNotSignedRequiredContract: boolean;
  street: string | null;
  postalCode: string | null;
  city: string | null;
  insurer: string | null;
  insurerCode: string | null;
  campaign: string | null;
}

const has = (value: string | null) => !!value && value.trim() !== '';

/** German reasons an item cannot be billed as it stands (empty: it can). */
export function validationErrorsFor(
  client: ClientBillingData,
  payerKind: PayerKind | null,
): ValidationError[] {
  const errors: ValidationError[] = [];
  if (payerKind === null) {
    errors.push({ code: 'no_rule', message: 'Keine Abrechnungsregel passt zu diesem Termin.' });
  }
  if (client.hasNotSignedRequiredContract) {
    errors.push({
      code: 'contract_not_signed',
      message: 'Die Klient:in hat den erforderlichen Vertrag nicht unterschrieben.',
    });
  }
  if (
    payerKind === 'client' &&
    !(has(client.street) && has(client.postalCode) && has(client.city))
  ) {
    errors.push({
      code: 'missing_address',
      message: 'Für die Rechnung fehlt die Anschrift der Klient:in (Straße, PLZ, Ort).',
    });
  }
  if (payerKind === 'statutory_insurer' || payerKind === 'private_insurer') {
    if (!has(client.insurer)) {
      errors.push({
        code: 'missing_insurer',
        message: 'Bei der Klient:in ist keine Krankenkasse hinterlegt.',
      });
    }
    if (!has(client.insurerCode)) {
      errors.push({
        code: 'missing_insurer_code',
        message: 'Bei der Klient:in fehlt die Versichertennummer der Krankenkasse.',
      });
    }
  }
  if (payerKind === 'sponsor' && !has(client.campaign)) {
    errors.push({
      code: 'missing_campaign',
      message: 'Für die Abrechnung mit dem Arbeitgeber fehlt die Kampagne der Klient:in.',
    });
  }
  return errors;
}
