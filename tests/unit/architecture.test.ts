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

/** A server module that runs on its own (`tsx <file>`): its top level is its program. */
const ENTRY_POINT = /(^|\/)(main|cli|[\w-]+-cli|rotate-key|patch-metadata)\.ts$/;

/**
 * Top-level statements that call something another module exports (`onX(listener)`,
 * `registry.register(…)`): importing such a module changes state elsewhere, so what runs
 * depends on which modules happen to be imported, and every app in one process shares it.
 * Listeners and registrations belong where the app is assembled (buildApp). Calls on the
 * module's own values (filling a constant it declares) are its own business.
 */
export function importSideEffects(files: Map<string, string>): string[] {
  const found: string[] = [];
  for (const [file, text] of files) {
    if (!file.startsWith('server/') || ENTRY_POINT.test(file)) continue;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
    const imported = new Set<string>();
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement) || !statement.importClause) continue;
      const clause = statement.importClause;
      if (clause.name) imported.add(clause.name.text);
      const bindings = clause.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) imported.add(bindings.name.text);
      if (bindings && ts.isNamedImports(bindings))
        for (const element of bindings.elements) imported.add(element.name.text);
    }
    for (const statement of source.statements) {
      if (!ts.isExpressionStatement(statement)) continue;
      let expression = statement.expression;
      while (ts.isAwaitExpression(expression) || ts.isVoidExpression(expression))
        expression = expression.expression;
      if (!ts.isCallExpression(expression)) continue;
      let callee: ts.Expression = expression.expression;
      while (ts.isPropertyAccessExpression(callee)) callee = callee.expression;
      if (ts.isIdentifier(callee) && imported.has(callee.text)) {
        const { line } = source.getLineAndCharacterOfPosition(statement.getStart(source));
        found.push(`${file}:${line + 1}`);
      }
    }
  }
  return found;
}

/**
 * A transaction begins through inTransaction (server/db/transaction.ts), which joins the
 * transaction a handler may already run in (a request with an Idempotency-Key) instead of
 * opening a savepoint nobody needs; a database handle is called `db` throughout. A savepoint
 * (`tx.transaction(…)`) is written out where a failure is caught and the transaction goes on.
 */
export function transactionsBegunDirectly(files: Map<string, string>): string[] {
  const found: string[] = [];
  for (const [file, text] of files) {
    if (!file.startsWith('server/') || file.startsWith('server/db/')) continue;
    text.split('\n').forEach((line, i) => {
      if (/\bdb\.transaction\(/.test(line)) found.push(`${file}:${i + 1}`);
    });
  }
  return found;
}

/** The names the schema gives its constraints and indexes. */
function constraintNames(files: Map<string, string>): Set<string> {
  const names = new Set<string>();
  for (const [file, text] of files) {
    if (!file.startsWith('server/db/schema/')) continue;
    for (const match of text.matchAll(
      /\b(?:uniqueIndex|index|unique|check|primaryKey|foreignKey)\(\s*'([a-z0-9_]+)'/g,
    ))
      names.add(match[1]!);
    for (const match of text.matchAll(/\bname: '([a-z0-9_]+)'/g)) names.add(match[1]!);
  }
  return names;
}

/**
 * The HTTP layer names no constraint: each feature maps its own unique and foreign keys to
 * the problem they answer (`ConstraintProblems`), and the app hands them to the error handler.
 */
export function constraintsNamedInHttp(files: Map<string, string>): string[] {
  const names = constraintNames(files);
  const found: string[] = [];
  for (const [file, text] of files) {
    if (!file.startsWith('server/http/')) continue;
    for (const match of text.matchAll(/['"`]?([a-z0-9_]+)['"`]?/g))
      if (names.has(match[1]!)) found.push(`${file}: ${match[1]}`);
  }
  return [...new Set(found)];
}

// prom-client's process metrics are one set per process by its design (one default registry).
const PROCESS_WIDE = new Set(['server/metrics/registry.ts:11']);

describe('the server core', () => {
  const files = new Map(
    walk(path.join(ROOT, 'server')).map((f) => [rel(f), readFileSync(f, 'utf8')] as const),
  );

  it('reads the server', () => {
    expect(files.size).toBeGreaterThan(200);
    expect(constraintNames(files).has('users_coach_id_key')).toBe(true);
  });

  it('registers no listener or anything else at import time', () => {
    expect(importSideEffects(files).filter((at) => !PROCESS_WIDE.has(at))).toEqual([]);
  });

  it('begins transactions through inTransaction only', () => {
    expect(transactionsBegunDirectly(files)).toEqual([]);
  });

  it("leaves the features' constraint names to the features", () => {
    expect(constraintsNamedInHttp(files)).toEqual([]);
  });

  it('the checks can fail', () => {
    const bad = new Map([
      [
        'server/features/x/index.ts',
        "import { onOutcome } from '../y/index';\nimport { z } from './z';\nconst own = new Set();\nown.add(1);\nonOutcome(z);\n",
      ],
      ['server/features/x/main.ts', "import { start } from './start';\nawait start();\n"],
      [
        'server/features/x/handlers.ts',
        'await deps.db.transaction(async (tx) => {});\nawait tx.transaction(() => claim());\n',
      ],
      ['server/db/schema/core.ts', "uniqueIndex('users_coach_id_key').on(t.coachId)"],
      ['server/http/problem.ts', "const known = { users_coach_id_key: () => conflict('x') };"],
    ]);
    expect(importSideEffects(bad)).toEqual(['server/features/x/index.ts:5']);
    expect(transactionsBegunDirectly(bad)).toEqual(['server/features/x/handlers.ts:1']);
    expect(constraintsNamedInHttp(bad)).toEqual(['server/http/problem.ts: users_coach_id_key']);
  });
});
