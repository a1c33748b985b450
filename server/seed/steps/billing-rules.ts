import type { Faker } from '@faker-js/faker';
import type { BillingRulePlan } from '../types';

/** The exemption text of the consultations (to be confirmed by the practice's tax adviser). */
const HEILBEHANDLUNG = 'Steuerfreie Heilbehandlung gem. § 4 Nr. 14 a UStG';

/** The practice's price list, in evaluation order (outcome rules first). */
export function billingRules(f: Faker): BillingRulePlan[] {
  const rules: Omit<BillingRulePlan, 'id' | 'position'>[] = [
    // Outcome rules first: a no-show or a late cancellation is billed as a flat fee, not
    // as the appointment's type would be.
    {
      name: 'Nicht erschienen',
      appointmentType: null,
      insurer: null,
      campaign: null,
      noShow: true,
      amountCents: 3_000,
      description: 'Ausfallgebühr: Termin nicht wahrgenommen.',
      active: true,
    },
    {
      name: 'Kurzfristig abgesagt',
      appointmentType: null,
      insurer: null,
      campaign: null,
      cancelledLate: true,
      amountCents: 2_500,
      description: 'Ausfallgebühr: Absage weniger als 24 Stunden vor dem Termin.',
      active: true,
    },
    {
      name: 'Betrieb gesund: Ersttermin',
      appointmentType: 'first',
      insurer: null,
      campaign: 'betrieb-gesund',
      sponsorPays: true,
      amountCents: 11_000,
      description: 'Pauschale des Arbeitgebers für den Ersttermin.',
      payerKind: 'sponsor',
      active: true,
    },
    {
      name: 'Betrieb gesund: Folgetermin',
      appointmentType: 'followup',
      insurer: null,
      campaign: 'betrieb-gesund',
      sponsorPays: true,
      amountCents: 7_500,
      description: 'Pauschale des Arbeitgebers je Folgetermin.',
      payerKind: 'sponsor',
      active: true,
    },
    {
      name: 'AOK Bayern: Folgetermin',
      appointmentType: 'followup',
      insurer: 'AOK Bayern',
      campaign: null,
      amountCents: 7_000,
      description: 'Selektivvertrag mit der AOK Bayern.',
      payerKind: 'statutory_insurer',
      active: true,
    },
    {
      name: 'Erstgespräch',
      appointmentType: 'initial',
      insurer: null,
      campaign: null,
      amountCents: 0,
      description: 'Das Erstgespräch ist kostenfrei.',
      active: true,
    },
    {
      name: 'Ersttermin',
      appointmentType: 'first',
      insurer: null,
      campaign: null,
      amountCents: 9_500,
      description: 'Ersttermin, 60 Minuten.',
      active: true,
    },
    {
      name: 'Folgetermin',
      appointmentType: 'followup',
      insurer: null,
      campaign: null,
      amountCents: 6_500,
      description: 'Folgetermin, 50 Minuten.',
      active: true,
    },
    {
      name: 'Ärztliche Erstkonsultation',
      appointmentType: 'first-arztkonsultation',
      insurer: null,
      campaign: null,
      amountCents: 4_500,
      description: 'Ärztliche Konsultation, 30 Minuten.',
      vatTreatment: 'exempt',
      vatExemptionReason: HEILBEHANDLUNG,
      active: true,
    },
    {
      name: 'Ärztliche Folgekonsultation',
      appointmentType: 'followup-arztkonsultation',
      insurer: null,
      campaign: null,
      amountCents: 3_500,
      description: 'Ärztliche Konsultation, 30 Minuten.',
      vatTreatment: 'exempt',
      vatExemptionReason: HEILBEHANDLUNG,
      active: true,
    },
    {
      name: 'Ad-hoc-Termin',
      appointmentType: 'adhoc',
      insurer: null,
      campaign: null,
      amountCents: 2_500,
      description: 'Kurzer Ad-hoc-Termin.',
      active: true,
    },
    {
      name: 'Herbstaktion 2025 (beendet)',
      appointmentType: null,
      insurer: null,
      campaign: 'herbst-2025',
      amountCents: 5_000,
      description: 'Nicht mehr aktiv.',
      active: false,
    },
  ];
  return rules.map((r, position) => ({ id: f.string.uuid(), position, ...r }));
}
