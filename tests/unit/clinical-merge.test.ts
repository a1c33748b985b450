import { describe, expect, it } from 'vitest';
import { mergeContents } from '../../src/views/clinical/merge';

describe('merging two versions of a clinical document (conflict view)', () => {
  it('keeps agreeing fields, both texts where they differ, merges sections field by field and keeps my flags', () => {
    const mine = {
      format: 'SOAP',
      riskFlag: true,
      sections: { subjective: 'meins', plan: 'gleich' },
      homework: 'Protokoll',
    };
    const theirs = {
      format: 'SOAP',
      riskFlag: false,
      sections: { subjective: 'deins', plan: 'gleich', assessment: 'neu' },
      homework: '',
      nextSteps: 'Termin',
    };
    expect(mergeContents(mine, theirs, '---')).toEqual({
      format: 'SOAP',
      riskFlag: true,
      sections: { subjective: 'meins\n\n---\ndeins', plan: 'gleich', assessment: 'neu' },
      homework: 'Protokoll',
      nextSteps: 'Termin',
    });
  });
});
