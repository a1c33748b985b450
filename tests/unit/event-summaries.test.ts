import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { summaryOf } from '../../server/features/events/summaries';

const FEATURES = join(import.meta.dirname, '../../server/features');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sources(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Event types written by the features: `type: 'a.b'` (also in ternaries) and `*_EVENT = 'a.b'`. */
function recordedTypes(): Set<string> {
  const types = new Set<string>();
  for (const file of sources(FEATURES)) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!/\btype:|_EVENT\s*=/.test(line)) continue;
      for (const match of line.matchAll(/'([a-z_]+\.[a-z_]+)'/g)) types.add(match[1]!);
    }
  }
  return types;
}

describe('activity feed summaries', () => {
  it('has a German summary for every event type a feature records', () => {
    const types = [...recordedTypes()];
    expect(types.length).toBeGreaterThan(15);
    expect(types.filter((type) => summaryOf(type) === type)).toEqual([]);
  });
});
