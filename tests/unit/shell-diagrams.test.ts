import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';
import {
  diagramSections,
  generateDiagrams,
  machineModules,
  staleDiagrams,
} from '../../scripts/diagrams/generate';
import { MEANINGS } from '../../scripts/diagrams/meanings.de';
import { allNodes, diagramSize, MERMAID_LIMITS } from '../../scripts/diagrams/mermaid';

const blocks = (content: string) =>
  [...content.matchAll(/```mermaid\n([\s\S]*?)```/g)].map((m) => m[1]!);

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

  it('keeps every diagram within what a default Mermaid renderer draws', async () => {
    const sizes = (await generateDiagrams()).flatMap((d) =>
      blocks(d.content).map((body) => ({ file: d.file, ...diagramSize(body) })),
    );
    expect(sizes.length).toBeGreaterThan(41);
    const tooBig = sizes.filter(
      (s) => s.textSize > MERMAID_LIMITS.maxTextSize || s.edges > MERMAID_LIMITS.maxEdges,
    );
    expect(tooBig).toEqual([]);
  });

  it('draws the sign-in flow as an overview of its groups and one diagram per group', async () => {
    const auth = (await generateDiagrams()).find((d) => d.file === 'authFlow.md')!;
    expect(auth.content).toContain('## Überblick');
    expect(auth.content).toContain('## Anmelden');
    expect(blocks(auth.content)).toHaveLength(7);
    const overview = blocks(auth.content)[0]!;
    expect(overview).toMatch(/g_anmelden --> g_zweiter_faktor: /);
    // A state of another group is named, not drawn again.
    expect(blocks(auth.content)[2]).toContain('→ Anmelden');
  });

  it('shows transitions that stay in their state, and names combined guards', async () => {
    const diagrams = await generateDiagrams();
    const booking = diagrams.find((d) => d.file === 'booking.md')!.content;
    expect(booking).toContain('choosingSlot --> choosingSlot: coach.select [canPickCoach]');
    expect(booking).toContain('choosingSlot --> choosingSlot: type.select');
    const auth = diagrams.find((d) => d.file === 'authFlow.md')!.content;
    expect(auth).toContain('[not(isProfile)]');
    expect(auth).not.toContain('[guard]');
  });

  it('refuses to draw a machine too big for one diagram that has no groups', () => {
    const states = Object.fromEntries(
      Array.from({ length: 30 }, (_, i) => [
        `s${i}`,
        { on: Object.fromEntries(Array.from({ length: 20 }, (_, j) => [`e${j}`, `.`])) },
      ]),
    );
    const huge = createMachine({ id: 'huge', initial: 's0', states });
    expect(() => diagramSections(huge)).toThrow(/too big for one diagram/);
  });

  it('gives meanings only for states that exist', async () => {
    const ids = new Set(
      (await generateDiagrams()).flatMap((d) => allNodes(d.entry!.machine.root).map((n) => n.id)),
    );
    expect(Object.keys(MEANINGS).filter((id) => !ids.has(id))).toEqual([]);
  });
});
