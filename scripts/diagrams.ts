// `npm run diagrams`: Mermaid state diagrams (docs/machines/*.md) generated from every machine
// definition under src/machines/, for product owners; `--check` fails when they are stale
// (tests/unit/diagrams.test.ts runs the same check in `npm test`).
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AnyStateMachine, AnyStateNode } from 'xstate';

const ROOT = path.join(import.meta.dirname, '..');
export const MACHINES_DIR = path.join(ROOT, 'src/machines');
export const DIAGRAMS_DIR = path.join(ROOT, 'docs/machines');

/**
 * Every machine module: .ts files under src/machines, without actor factories, the routes'
 * wiring (machines with their actors supplied, not definitions of their own) and tests.
 */
export function machineModules(dir = MACHINES_DIR): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory())
        return entry.name === 'actors' || entry.name === 'wiring' ? [] : machineModules(full);
      return /\.ts$/.test(entry.name) && !/\.(test|d)\.ts$/.test(entry.name) ? [full] : [];
    })
    .sort();
}

const isMachine = (value: unknown): value is AnyStateMachine =>
  typeof value === 'object' &&
  value !== null &&
  'root' in value &&
  'config' in value &&
  typeof (value as { provide?: unknown }).provide === 'function';

const mermaidId = (node: AnyStateNode) =>
  node.path.length === 0 ? '[*]' : node.path.join('__').replace(/[^A-Za-z0-9_]/g, '_');

/** A readable label for a transition's event. */
function eventLabel(eventType: string): string {
  const done = /^xstate\.done\.actor\.(.+)$/.exec(eventType);
  if (done) return `${done[1]} done`;
  const error = /^xstate\.error\.actor\.(.+)$/.exec(eventType);
  if (error) return `${error[1]} failed`;
  const after = /^xstate\.after\.([^.]+)\./.exec(eventType);
  if (after) return `after ${after[1]}`;
  const doneState = /^xstate\.done\.state\./.exec(eventType);
  if (doneState) return 'done';
  return eventType;
}

function guardLabel(guard: unknown): string {
  if (!guard) return '';
  if (typeof guard === 'string') return ` [${guard}]`;
  if (typeof guard === 'object' && 'type' in guard)
    return ` [${String((guard as { type: unknown }).type)}]`;
  return ' [guard]';
}

/** The stateDiagram-v2 body of one machine. */
export function toMermaid(machine: AnyStateMachine): string {
  const lines: string[] = ['stateDiagram-v2'];
  const edges: string[] = [];

  const visit = (node: AnyStateNode, indent: string) => {
    const children = Object.values(node.states) as AnyStateNode[];
    if (node.initial && children.length > 0) {
      const initial = (node.initial.target as AnyStateNode[])[0];
      if (initial) lines.push(`${indent}[*] --> ${mermaidId(initial)}`);
    }
    for (const child of children) {
      const id = mermaidId(child);
      const tags = [...(child.tags ?? [])];
      const label =
        child.key +
        (child.type === 'final' ? ' (final)' : '') +
        (tags.length ? ` (${tags.join(', ')})` : '');
      lines.push(`${indent}state "${label}" as ${id}`);
      const grandchildren = Object.values(child.states);
      if (grandchildren.length > 0) {
        lines.push(`${indent}state ${id} {`);
        visit(child, `${indent}  `);
        lines.push(`${indent}}`);
      }
      if (child.type === 'final') lines.push(`${indent}${id} --> [*]`);
      collectEdges(child);
    }
  };

  const collectEdges = (node: AnyStateNode) => {
    const source = node.path.length === 0 ? null : mermaidId(node);
    const definitions = [...[...node.transitions.values()].flat(), ...(node.always ?? [])];
    for (const t of definitions) {
      const targets = (t.target ?? []) as AnyStateNode[];
      const label = `${t.eventType === '' ? 'always' : eventLabel(String(t.eventType))}${guardLabel(t.guard)}`;
      // Root-level transitions are drawn from a note-like pseudo state "any state".
      const from = source ?? 'any_state';
      for (const target of targets) edges.push(`  ${from} --> ${mermaidId(target)}: ${label}`);
    }
  };

  collectEdges(machine.root);
  visit(machine.root, '  ');
  if (edges.some((e) => e.startsWith('  any_state')))
    lines.push('  state "(any state)" as any_state');
  return [...lines, ...edges].join('\n');
}

export interface Diagram {
  file: string;
  content: string;
}

/** Imports every machine module and renders one Markdown file per machine. */
export async function generateDiagrams(): Promise<Diagram[]> {
  const diagrams: Diagram[] = [];
  const seen = new Set<unknown>();
  for (const file of machineModules()) {
    const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    for (const [exportName, value] of Object.entries(module).sort(([a], [b]) =>
      a.localeCompare(b),
    )) {
      if (!isMachine(value) || seen.has(value)) continue;
      seen.add(value);
      const source = path.relative(ROOT, file).split(path.sep).join('/');
      const name = value.id && value.id !== '(machine)' ? value.id : exportName;
      diagrams.push({
        file: `${name}.md`,
        content: [
          `# ${name}`,
          '',
          `Generated by \`npm run diagrams\` from \`${exportName}\` in \`${source}\`. Do not edit.`,
          '',
          '```mermaid',
          toMermaid(value),
          '```',
          '',
        ].join('\n'),
      });
    }
  }
  const names = diagrams.map((d) => d.file);
  const duplicate = names.find((n, i) => names.indexOf(n) !== i);
  if (duplicate)
    throw new Error(`Two machines would write docs/machines/${duplicate}: give them distinct ids`);
  return diagrams.sort((a, b) => a.file.localeCompare(b.file));
}

/** Files that are missing, different or left over. */
export function staleDiagrams(diagrams: Diagram[], dir = DIAGRAMS_DIR): string[] {
  const stale = diagrams
    .filter(
      (d) =>
        !existsSync(path.join(dir, d.file)) ||
        readFileSync(path.join(dir, d.file), 'utf8') !== d.content,
    )
    .map((d) => d.file);
  const expected = new Set(diagrams.map((d) => d.file));
  const leftOver = existsSync(dir)
    ? readdirSync(dir).filter((f) => f.endsWith('.md') && !expected.has(f))
    : [];
  return [...stale, ...leftOver];
}

async function main() {
  const diagrams = await generateDiagrams();
  if (process.argv.includes('--check')) {
    const stale = staleDiagrams(diagrams);
    if (stale.length > 0) {
      console.error(`Stale machine diagrams: ${stale.join(', ')}. Run: npm run diagrams`);
      process.exit(1);
    }
    console.log(`${diagrams.length} machine diagrams are up to date.`);
    return;
  }
  mkdirSync(DIAGRAMS_DIR, { recursive: true });
  for (const f of readdirSync(DIAGRAMS_DIR).filter((f) => f.endsWith('.md'))) {
    rmSync(path.join(DIAGRAMS_DIR, f));
  }
  for (const d of diagrams) writeFileSync(path.join(DIAGRAMS_DIR, d.file), d.content);
  console.log(`Wrote ${diagrams.length} diagrams to docs/machines/.`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
