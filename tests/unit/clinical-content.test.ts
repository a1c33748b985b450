import { describe, expect, it } from 'vitest';
import {
  blockersOf,
  canonicalJson,
  checkSummaryContent,
  patientCardBlockers,
  sha256,
  summaryBlockers,
} from '../../server/features/clinical/content';

describe('canonical content hash', () => {
  it('does not depend on key order, and changes with any value', () => {
    const a = { b: 1, a: { d: [1, { y: 2, x: 'ü' }], c: null } };
    const b = { a: { c: null, d: [1, { x: 'ü', y: 2 }] }, b: 1 };
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    expect(canonicalJson(a)).toBe('{"a":{"c":null,"d":[1,{"x":"ü","y":2}]},"b":1}');
    expect(sha256(a)).toBe(sha256(b));
    expect(sha256(a)).not.toBe(sha256({ ...b, b: 2 }));
    expect(sha256(a)).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('blockers', () => {
  it('asks every section of the chosen template, and next steps for a risk', () => {
    const dap = {
      format: 'DAP' as const,
      riskFlag: true,
      sections: { data: 'd', assessment: 'a', plan: ' ' },
    };
    expect(summaryBlockers(dap)).toEqual(['sections_incomplete', 'risk_without_next_steps']);
    expect(
      summaryBlockers({ ...dap, sections: { ...dap.sections, plan: 'p' }, nextSteps: 'Anruf' }),
    ).toEqual([]);
    expect(() => checkSummaryContent({ ...dap, sections: { subjective: 's' } })).toThrow(
      /not a section of DAP/,
    );
  });

  it('asks a patient card for consent and a reason, with German messages', () => {
    expect(patientCardBlockers({})).toEqual(['consent_missing', 'reason_missing']);
    const ok = {
      reason: 'Stress',
      consents: { processing: '2026-01-01T00:00:00.000Z', research: false, recordings: false },
    };
    expect(patientCardBlockers(ok)).toEqual([]);
    expect(blockersOf(['consent_missing'])[0]!.message).toMatch(/Einwilligung/);
  });
});
