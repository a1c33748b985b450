import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The routes whose page shows the sign-in widget, read from the app's route table
 * (src/app/routes.ts) and the pages' imports: a route counts when its page module reaches the
 * widget's screens (src/views/auth/screens/index.tsx) through its static or dynamic relative
 * imports. A new page that shows the widget is found without anyone listing it.
 */

const ROOT = join(import.meta.dirname, '../..');
const ROUTES = join(ROOT, 'src/app/routes.ts');
const WIDGET = join(ROOT, 'src/views/auth/screens/index.tsx');

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

function resolveModule(from: string, spec: string): string | null {
  const base = resolve(dirname(from), spec);
  for (const candidate of [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    join(base, 'index.ts'),
    join(base, 'index.tsx'),
  ]) {
    if (/\.(ts|tsx)$/.test(candidate) && existsSync(candidate)) return candidate;
  }
  return null;
}

function importsOf(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  return [...source.matchAll(IMPORT)]
    .map((m) => resolveModule(file, m[1]!))
    .filter((f): f is string => f !== null);
}

function reaches(start: string, target: string): boolean {
  const seen = new Set<string>();
  const stack = [start];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (file === target) return true;
    if (seen.has(file)) continue;
    seen.add(file);
    stack.push(...importsOf(file));
  }
  return false;
}

/** Route paths (patterns as in the table) whose page shows the sign-in widget, in table order. */
export function widgetRoutes(): string[] {
  const source = readFileSync(ROUTES, 'utf8');
  // `const Name = lazyPage(() => import('../views/…'))` (possibly over several lines) and
  // `import { Name } from '../views/…'`.
  const modules = new Map<string, string>();
  for (const m of source.matchAll(
    /const\s+(\w+)\s*=\s*lazyPage\(\s*\(\)\s*=>\s*import\(\s*'([^']+)'/g,
  )) {
    const file = resolveModule(ROUTES, m[2]!);
    if (file) modules.set(m[1]!, file);
  }
  for (const m of source.matchAll(/import\s*\{([^}]+)\}\s*from\s*'(\.\.\/views\/[^']+)'/g)) {
    const file = resolveModule(ROUTES, m[2]!);
    if (!file) continue;
    for (const name of m[1]!
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean))
      modules.set(name, file);
  }
  const paths: string[] = [];
  for (const m of source.matchAll(/\bpage\(\s*'([^']+)'\s*,[^,]+,\s*(\w+)/g)) {
    const file = modules.get(m[2]!);
    if (!file)
      throw new Error(`route ${m[1]}: page ${m[2]} not found in ${relative(ROOT, ROUTES)}`);
    if (reaches(file, WIDGET)) paths.push(m[1]!);
  }
  if (paths.length === 0)
    throw new Error('no route shows the sign-in widget: the route table was not read');
  return paths;
}
