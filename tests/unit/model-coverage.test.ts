// @vitest-environment node
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateDiagrams } from '../../scripts/diagrams/generate';

// Every machine under src/machines (the ones `npm run diagrams` draws) has a model-based test
// on the shared harness; the harness itself fails a test whose paths miss a state.
const UNIT = path.join(import.meta.dirname);

/** `machine: someMachine` in the describeModel calls of the unit tests. */
function modelTestedExports(): Set<string> {
  const names = new Set<string>();
  for (const file of readdirSync(UNIT).filter((f) => /\.test\.tsx?$/.test(f))) {
    const source = readFileSync(path.join(UNIT, file), 'utf8');
    if (!source.includes('describeModel(')) continue;
    for (const m of source.matchAll(/\bmachine: (\w+),/g)) names.add(m[1]!);
  }
  return names;
}

describe('model-based tests', () => {
  it('exist for every machine under src/machines', async () => {
    const machines = (await generateDiagrams()).map((d) => {
      const exportName = /from `(\w+)` in `/.exec(d.content)?.[1];
      if (!exportName) throw new Error(`${d.file}: no export name in the diagram`);
      return exportName;
    });
    expect(machines.length).toBeGreaterThan(20);
    const tested = modelTestedExports();
    expect(machines.filter((name) => !tested.has(name))).toEqual([]);
  });
});
