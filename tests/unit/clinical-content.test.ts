import { describe, expect, it } from 'vitest';
import { canonicalHash as sha256, canonicalJson } from '../../server/canonical-json';
import {
  blockersOf,
  checkSummaryContent,
  patientCardBlockers,
  summaryBlockers,
} from '../../server/features/clinical/content';
import { requestHash } from '../../server/http/idempotency';

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

  // Stored hashes (signed documents, amendments, idempotency keys) were made with these exact
  // bytes; a change of the canonical form breaks their verification.
  it('hashes a signed payload and a request as before', () => {
    const signed = {
      type: 'summary',
      id: '6f1c2d3e-4b5a-4c6d-8e7f-001122334455',
      signedById: '0b7f5a52-9d3c-4e1a-8f60-2a1b3c4d5e6f',
      signedAt: '2026-11-20T10:00:00.000Z',
      content: {
        format: 'SOAP',
        riskFlag: false,
        sections: { subjective: 'Schläft schlecht', plan: 'Atemübung' },
        nextSteps: null,
      },
    };
    expect(sha256(signed)).toBe('4dfd5ebb0e3010c3b63297be3e49c514bd03098272ce88c87f8daa3a764d8e71');
    const request = {
      params: { id: 'a1' },
      query: { page: 2, q: undefined },
      body: { b: [1, 'x'], a: null },
    };
    expect(requestHash(request)).toBe(
      '68da7fda2883960c9f81f9260390143cdfeac3dcc9c8fbb3855dc1e3e6092772',
    );
  });

  it('writes undefined as JSON (and so a jsonb column) does', () => {
    const value = { list: [1, undefined], left: undefined };
    expect(canonicalJson(value)).toBe(canonicalJson(JSON.parse(JSON.stringify(value))));
    expect(canonicalJson(value)).toBe('{"list":[1,null]}');
    expect(canonicalJson(undefined)).toBe('null');
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
