// @vitest-environment node
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The import graph of the product code (src/, shared/, server/), read with the TypeScript
 * compiler's own import scanner (static imports, `import type`, re-exports and `import()`): the
 * layers hold (docs/decisions/0004-layers-and-feature-faces.md). ESLint's no-restricted-imports
 * says the same for one file at a time; a loop needs the whole graph, and this test cannot be
 * switched off by a comment in the importing file.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const ROOTS = ['src', 'shared', 'server'];
const SOURCE = /\.(ts|tsx)$/;

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else if (SOURCE.test(name) && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

const rel = (file: string) => path.relative(ROOT, file).split(path.sep).join('/');

/** A relative specifier to the file it names (as the bundler resolution of tsconfig does). */
function resolve(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), specifier);
  const candidates = [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    path.join(base, 'index.ts'),
    path.join(base, 'index.tsx'),
    base.replace(/\.js$/, '.ts'),
  ];
  return candidates.find((c) => SOURCE.test(c) && existsSync(c) && statSync(c).isFile());
}

export interface Edge {
  from: string;
  to: string;
}

/** Every import between two product files, as repository paths. */
export function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of ROOTS.flatMap((r) => walk(path.join(ROOT, r)))) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = new Set<string>();
    for (const imported of info.importedFiles) {
      const target = resolve(file, imported.fileName);
      if (target) targets.add(rel(target));
    }
    graph.set(rel(file), [...targets].sort());
  }
  return graph;
}

/** Strongly connected components with more than one file (or a file importing itself). */
export function loops(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter);
    counter += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

const edges = (graph: Map<string, string[]>): Edge[] =>
  [...graph].flatMap(([from, targets]) => targets.map((to) => ({ from, to })));

const show = (list: Edge[]) => list.map((e) => `${e.from} -> ${e.to}`);

/** `server/features/<area>/…` → area, else undefined. */
const featureOf = (file: string) => /^server\/features\/([^/]+)\//.exec(file)?.[1];

/** Forbidden edges by rule; each rule's list must be empty. */
export function violations(graph: Map<string, string[]>) {
  const all = edges(graph);
  const top = (f: string) => f.split('/')[0];
  return {
    'src/ imports server/': show(
      all.filter((e) => top(e.from) === 'src' && top(e.to) === 'server'),
    ),
    'server/ imports src/': show(
      all.filter((e) => top(e.from) === 'server' && top(e.to) === 'src'),
    ),
    'shared/ imports src/ or server/': show(
      all.filter((e) => top(e.from) === 'shared' && top(e.to) !== 'shared'),
    ),
    "another feature's inner file": show(
      all.filter((e) => {
        const target = featureOf(e.to);
        if (!target || featureOf(e.from) === target) return false;
        return e.to !== `server/features/${target}/index.ts`;
      }),
    ),
    'the auth provider reached by code, not by HTTP or events': show(
      all.filter((e) => {
        const fromProvider = e.from.startsWith('server/auth-provider/');
        const toProvider = e.to.startsWith('server/auth-provider/');
        // Only the assemblies mount it (server/app.ts, server/testing); the stand-alone provider's
        // own assembly, auth-provider/main.ts, hands it the product's mail outbox through the
        // notifications feature's public face
        // (docs/decisions/0017-sign-in-mail-through-the-queue.md).
        const assembly = e.from === 'server/auth-provider/main.ts';
        return (
          (toProvider && !fromProvider && e.from.startsWith('server/features/')) ||
          (fromProvider && !assembly && e.to.startsWith('server/features/'))
        );
      }),
    ),
    'infrastructure imports a feature': show(
      all.filter(
        (e) =>
          /^server\/(jobs|http|adapters|web|db)\//.test(e.from) &&
          e.to.startsWith('server/features/'),
      ),
    ),
    'below src/app/, something imports it': show(
      all.filter(
        (e) =>
          e.to.startsWith('src/app/') &&
          /^src\/(machines|api|forms|i18n|lib|ports|views)\//.test(e.from),
      ),
    ),
  };
}

describe('the import graph', () => {
  const graph = importGraph();

  it('reads the product code', () => {
    expect(graph.size).toBeGreaterThan(500);
    // The scanner sees type-only imports and re-exports too.
    expect(graph.get('server/features/index.ts')!.length).toBeGreaterThan(10);
  });

  it('has no forbidden edge between the layers and features', () => {
    const found = violations(graph);
    expect(found).toEqual(Object.fromEntries(Object.keys(found).map((k) => [k, []])));
  });

  it('has no import loop', () => {
    expect(loops(graph)).toEqual([]);
  });

  it('the checks can fail', () => {
    const bad = new Map<string, string[]>([
      ['src/views/a.tsx', ['server/features/x/repo.ts']],
      ['server/features/y/h.ts', ['server/features/x/repo.ts', 'src/app/routes.ts']],
      ['server/features/x/repo.ts', ['server/features/x/index.ts']],
      [
        'server/features/x/index.ts',
        ['server/features/x/repo.ts', 'server/auth-provider/users.ts'],
      ],
      ['shared/time.ts', ['server/time.ts']],
      ['src/machines/m.ts', ['src/app/services.ts']],
      ['server/jobs/queue.ts', ['server/features/x/index.ts']],
    ]);
    const found = violations(bad);
    expect(found['src/ imports server/']).toEqual(['src/views/a.tsx -> server/features/x/repo.ts']);
    expect(found['server/ imports src/']).toEqual(['server/features/y/h.ts -> src/app/routes.ts']);
    expect(found['shared/ imports src/ or server/']).toHaveLength(1);
    expect(found["another feature's inner file"]).toEqual([
      'src/views/a.tsx -> server/features/x/repo.ts',
      'server/features/y/h.ts -> server/features/x/repo.ts',
    ]);
    expect(found['the auth provider reached by code, not by HTTP or events']).toHaveLength(1);
    expect(found['below src/app/, something imports it']).toHaveLength(1);
    expect(found['infrastructure imports a feature']).toEqual([
      'server/jobs/queue.ts -> server/features/x/index.ts',
    ]);
    expect(loops(bad)).toEqual([['server/features/x/index.ts', 'server/features/x/repo.ts']]);
  });
});

/**
 * Views render from a machine's tags and `can()` and wire no effects: a state's
 * name is the machine's own, so `.matches(…)` in a view breaks silently when a state is renamed,
 * and `.provide(…)` belongs to the route actor's creation, not to a screen.
 */
function viewsReadingStateNames(files: Map<string, string>): string[] {
  const found: string[] = [];
  for (const [file, text] of files) {
    if (!file.startsWith('src/views/')) continue;
    text.split('\n').forEach((line, i) => {
      if (/\.(matches|provide)\(/.test(line)) found.push(`${file}:${i + 1}`);
    });
  }
  return found;
}

describe('the views', () => {
  it('read tags and can(), never state names, and provide no effects', () => {
    const views = new Map(
      walk(path.join(ROOT, 'src/views')).map((f) => [rel(f), readFileSync(f, 'utf8')] as const),
    );
    expect(views.size).toBeGreaterThan(100);
    expect(viewsReadingStateNames(views)).toEqual([]);
  });

  it('the check can fail', () => {
    const bad = new Map([
      ['src/views/a.tsx', "const x = 1;\nif (state.matches('loading')) return null;"],
      ['src/views/b.tsx', 'const ref = useActorRef(m.provide({ actors }));'],
      ['src/machines/c.ts', "snapshot.matches('x')"],
    ]);
    expect(viewsReadingStateNames(bad)).toEqual(['src/views/a.tsx:2', 'src/views/b.tsx:1']);
  });
});
