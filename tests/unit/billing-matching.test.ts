import { Temporal } from '@js-temporal/polyfill';
import { describe, expect, it } from 'vitest';
import {
  evaluateRules,
  failedCriteria,
  occasionOf,
  validationErrorsFor,
  type BillingFacts,
  type RuleCriteria,
} from '../../server/features/billing/matching';

const ANY: RuleCriteria = {
  active: true,
  appointmentType: null,
  insurer: null,
  campaign: null,
  clientType: null,
  sponsorPays: null,
  noShow: null,
  cancelledLate: null,
  validFrom: null,
  validTo: null,
};
const FACTS: BillingFacts = {
  appointmentType: 'followup',
  insurer: 'AOK Bayern',
  campaign: 'betrieb-gesund',
  clientType: 'self',
  sponsorPays: true,
  occasion: 'completed',
  serviceDate: '2026-05-10',
};

describe('rule criteria', () => {
  it('an empty rule matches everything', () => {
    expect(failedCriteria(ANY, FACTS)).toEqual([]);
  });

  const cases: Array<[Partial<RuleCriteria>, Partial<BillingFacts>, string]> = [
    [{ appointmentType: 'first' }, {}, 'appointmentType'],
    [{ insurer: 'TK' }, {}, 'insurer'],
    [{ insurer: 'TK' }, { insurer: null }, 'insurer'],
    [{ campaign: 'other' }, {}, 'campaign'],
    [{ clientType: 'relative' }, {}, 'clientType'],
    [{ sponsorPays: false }, {}, 'sponsorPays'],
    [{ noShow: true }, {}, 'noShow'],
    [{ noShow: false }, { occasion: 'no_show' }, 'noShow'],
    [{ cancelledLate: true }, {}, 'cancelledLate'],
    [{ cancelledLate: false }, { occasion: 'cancelled_late' }, 'cancelledLate'],
    [{ validFrom: '2026-05-11' }, {}, 'validFrom'],
    [{ validTo: '2026-05-09' }, {}, 'validTo'],
  ];
  for (const [rule, facts, criterion] of cases) {
    it(`${criterion} ${JSON.stringify(rule)} fails for ${JSON.stringify(facts)}`, () => {
      expect(failedCriteria({ ...ANY, ...rule }, { ...FACTS, ...facts })).toEqual([criterion]);
    });
  }

  it('each criterion matches when set to the fact', () => {
    const all: RuleCriteria = {
      ...ANY,
      appointmentType: 'followup',
      insurer: 'AOK Bayern',
      campaign: 'betrieb-gesund',
      clientType: 'self',
      sponsorPays: true,
      noShow: true,
      cancelledLate: false,
      validFrom: '2026-05-10',
      validTo: '2026-05-10',
    };
    expect(failedCriteria(all, { ...FACTS, occasion: 'no_show' })).toEqual([]);
  });
});

describe('first match', () => {
  const rule = (id: string, c: Partial<RuleCriteria>) => ({ ...ANY, id, ...c });

  it('takes the first active rule whose criteria all match, and explains the ones above', () => {
    const ordered = [
      rule('a', { insurer: 'TK' }),
      rule('b', { active: false }),
      rule('c', { appointmentType: 'followup', campaign: 'betrieb-gesund' }),
      rule('d', {}),
    ];
    const { match, trail } = evaluateRules(ordered, FACTS);
    expect(match?.id).toBe('c');
    expect(trail.map((t) => [t.rule.id, t.outcome, t.failedCriteria])).toEqual([
      ['a', 'not_matched', ['insurer']],
      ['b', 'inactive', []],
      ['c', 'matched', []],
    ]);
  });

  it('an inactive rule never matches; no match lists every rule', () => {
    const { match, trail } = evaluateRules(
      [rule('a', { active: false }), rule('b', { noShow: true })],
      FACTS,
    );
    expect(match).toBeNull();
    expect(trail).toHaveLength(2);
  });
});

describe('occasion', () => {
  const now = Temporal.Instant.from('2026-05-10T12:00:00Z');
  const base = {
    startDate: '2026-05-10T09:00:00Z',
    endDate: '2026-05-10T10:00:00Z',
    noShow: false,
    cancelledAt: null as string | null,
    isProvisional: false,
  };
  it('over → completed; not over → none', () => {
    expect(occasionOf(base, now, 24)).toBe('completed');
    expect(occasionOf({ ...base, endDate: '2026-05-10T13:00:00Z' }, now, 24)).toBeNull();
  });
  it('no-show, even before its end', () => {
    expect(occasionOf({ ...base, noShow: true, endDate: '2026-05-10T13:00:00Z' }, now, 24)).toBe(
      'no_show',
    );
  });
  it('cancelled inside the notice → late; in good time → none', () => {
    expect(occasionOf({ ...base, cancelledAt: '2026-05-09T10:00:00Z' }, now, 24)).toBe(
      'cancelled_late',
    );
    expect(occasionOf({ ...base, cancelledAt: '2026-05-09T08:00:00Z' }, now, 24)).toBeNull();
  });
  it('an unconfirmed hold is not billed', () => {
    expect(occasionOf({ ...base, isProvisional: true }, now, 24)).toBeNull();
  });
});

describe('validation reasons', () => {
  const complete = {
    hasNotSignedRequiredContract: false,
    street: 'Hauptstr. 1',
    postalCode: '10115',
    city: 'Berlin',
    insurer: 'AOK',
    insurerCode: 'A123456789',
    campaign: 'betrieb-gesund',
  };
  it('none for complete data', () => {
    for (const payer of ['client', 'sponsor', 'statutory_insurer', 'private_insurer'] as const) {
      expect(validationErrorsFor(complete, payer)).toEqual([]);
    }
  });
  it('names what is missing, in German', () => {
    expect(validationErrorsFor(complete, null).map((e) => e.code)).toEqual(['no_rule']);
    expect(
      validationErrorsFor({ ...complete, hasNotSignedRequiredContract: true }, 'client')[0]
        ?.message,
    ).toContain('Vertrag');
    expect(validationErrorsFor({ ...complete, city: ' ' }, 'client').map((e) => e.code)).toEqual([
      'missing_address',
    ]);
    expect(
      validationErrorsFor(
        { ...complete, insurer: null, insurerCode: null },
        'statutory_insurer',
      ).map((e) => e.code),
    ).toEqual(['missing_insurer', 'missing_insurer_code']);
    expect(
      validationErrorsFor({ ...complete, campaign: null }, 'sponsor').map((e) => e.code),
    ).toEqual(['missing_campaign']);
  });
});
