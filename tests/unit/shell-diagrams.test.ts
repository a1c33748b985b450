import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateDiagrams, machineModules, staleDiagrams } from '../../scripts/diagrams';

// Architecture: state diagrams for product owners are generated from the machine definitions
// and `npm test` fails when docs/machines/ no longer matches them.
describe('docs/machines (npm run diagrams)', () => {
  it('has an up-to-date diagram for every machine under src/machines', async () => {
    const diagrams = await generateDiagrams();
    expect(diagrams.map((d) => d.file)).toEqual(
      expect.arrayContaining(['session.md', 'support.md', 'overview.md']),
    );
    expect(staleDiagrams(diagrams), 'run: npm run diagrams').toEqual([]);
  });

  it('notices a changed, missing or left-over diagram', async () => {
    const diagrams = await generateDiagrams();
    const dir = mkdtempSync(path.join(tmpdir(), 'diagrams-'));
    for (const d of diagrams) writeFileSync(path.join(dir, d.file), d.content);
    expect(staleDiagrams(diagrams, dir)).toEqual([]);
    writeFileSync(path.join(dir, 'session.md'), 'hand-drawn');
    writeFileSync(path.join(dir, 'gone.md'), 'old machine');
    expect(staleDiagrams(diagrams, dir).sort()).toEqual(['gone.md', 'session.md']);
  });

  it('draws the session lifecycle from the machine itself', async () => {
    const session = (await generateDiagrams()).find((d) => d.file === 'session.md')!;
    expect(session.content).toContain('loggingIn --> partiallyLoggedIn: login failed');
    expect(session.content).toContain('loggingIn --> signedOut: login failed [isUnauthorized]');
    expect(session.content).toContain('any_state --> signedOut: user-deleted');
    expect(machineModules().some((f) => f.endsWith('session.machine.ts'))).toBe(true);
  });
});
