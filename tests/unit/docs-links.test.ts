// @vitest-environment node
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The docs point at files that exist: every relative link of a Markdown file, and every
 * document a code comment cites (`docs/…`, or a path ending in `.md`). A citation by a file name
 * without its folder names no file a newcomer can open, so it fails too. Decision records are
 * numbered and indexed; drafts (files named `draft-<slug>` in the decisions folder) are written
 * by other work in progress and wait for the lead to number them, so they need no index entry.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const SKIP = new Set(['node_modules', 'dist', '.git', '.data', 'coverage', 'test-results']);
const CODE_ROOTS = ['src', 'server', 'shared', 'tests', 'scripts', 'bench'];
const CODE = /\.(ts|tsx|js|mjs|cjs|sh)$/;
const DECISIONS = 'docs/decisions';

function walk(dir: string, keep: (name: string) => boolean, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name)) continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) walk(full, keep, out);
    else if (keep(name)) out.push(full);
  }
  return out;
}

const rel = (file: string) => path.relative(ROOT, file).split(path.sep).join('/');
const exists = (file: string) => existsSync(file);

/** `[text](target)` links of a Markdown text that point into the repository, with their line. */
export function relativeLinks(text: string): { target: string; line: number }[] {
  const found: { target: string; line: number }[] = [];
  // Code spans and fenced blocks are examples, not links.
  const prose = text.replace(/```[\s\S]*?```/g, (block) => block.replace(/[^\n]/g, ' '));
  prose.split('\n').forEach((line, i) => {
    const withoutCode = line.replace(/`[^`]*`/g, (span) => ' '.repeat(span.length));
    for (const match of withoutCode.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = match[1]!.replace(/^<|>$/g, '');
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue;
      found.push({ target: target.split('#')[0]!, line: i + 1 });
    }
  });
  return found;
}

/** The text of a file's comments (line comments, block comments, shell comments). */
export function commentText(source: string, shell = false): string[] {
  const lines: string[] = [];
  const blocks = source.matchAll(/\/\*[\s\S]*?\*\//g);
  for (const block of blocks) lines.push(...block[0].split('\n'));
  for (const line of source.split('\n')) {
    const slash = /(?:^|\s)\/\/(.*)$/.exec(line);
    if (slash) lines.push(slash[1]!);
    if (shell && /^\s*#/.test(line)) lines.push(line);
  }
  return lines;
}

/** Documents a comment names: `docs/…` paths and paths or names ending in `.md`. */
export function citedDocuments(comment: string): string[] {
  const found = new Set<string>();
  for (const match of comment.matchAll(
    /(?<![\w./-])((?:\.{1,2}\/)*[\w@.-]+(?:\/[\w@.-]+)*\.md)\b/g,
  )) {
    found.add(match[1]!);
  }
  for (const match of comment.matchAll(/(?<![\w./-])(docs\/[\w@./-]*[\w@-])/g)) {
    found.add(match[1]!);
  }
  return [...found];
}

/** A cited document resolves from the repository root or from the citing file's folder. */
function resolves(citation: string, fromFile: string): boolean {
  const fromRoot = path.join(ROOT, citation);
  const fromDir = path.join(path.dirname(fromFile), citation);
  if (!citation.includes('/')) return exists(fromRoot) || exists(fromDir);
  return exists(fromRoot) || exists(fromDir);
}

describe('links in the Markdown files', () => {
  const files = walk(ROOT, (name) => name.endsWith('.md'));

  it('reads the docs', () => {
    expect(files.map(rel)).toEqual(
      expect.arrayContaining(['README.md', 'ARCHITECTURE.md', 'docs/decisions/README.md']),
    );
  });

  it('every relative link points at a file or folder that exists', () => {
    const broken = files.flatMap((file) =>
      relativeLinks(readFileSync(file, 'utf8'))
        .filter(({ target }) => !exists(path.join(path.dirname(file), decodeURI(target))))
        .map(({ target, line }) => `${rel(file)}:${line} -> ${target}`),
    );
    expect(broken).toEqual([]);
  });

  it('the check can fail', () => {
    const text = [
      'See [a](docs/a.md), [b](./b.md#x "t"), [web](https://x.org), [top](#top).',
      '`[code](not/a/link.md)`',
      '```',
      '[fenced](nope.md)',
      '```',
    ].join('\n');
    expect(relativeLinks(text)).toEqual([
      { target: 'docs/a.md', line: 1 },
      { target: './b.md', line: 1 },
    ]);
  });
});

describe('documents cited in code comments', () => {
  const files = CODE_ROOTS.flatMap((root) => walk(path.join(ROOT, root), (n) => CODE.test(n)));

  it('reads the code', () => {
    expect(files.length).toBeGreaterThan(500);
  });

  it('every cited document exists in the repository', () => {
    const missing = files.flatMap((file) =>
      commentText(readFileSync(file, 'utf8'), file.endsWith('.sh'))
        .flatMap(citedDocuments)
        .filter((citation) => !resolves(citation, file))
        .map((citation) => `${rel(file)} -> ${citation}`),
    );
    expect([...new Set(missing)]).toEqual([]);
  });

  it('the check can fail', () => {
    // Built from pieces, so that this file's own source carries no such comment.
    const [slash, md] = ['/', '.md'];
    const source = [
      `const x = 'docs/machines/session${md}'; ${slash}${slash} see docs/domain${md} and style${md}`,
      `${slash}** Follows auth-flow-protocol${md} §2 and ../shared/design/x${md}, not e.g. a.b. *${slash}`,
      'const y = 1;',
    ].join('\n');
    const cited = commentText(source).flatMap(citedDocuments);
    expect(cited.sort()).toEqual(
      ['../shared/design/x.md', 'auth-flow-protocol.md', 'docs/domain.md', 'style.md'].sort(),
    );
    const here = path.join(ROOT, 'tests/unit/x.ts');
    expect(cited.filter((c) => !resolves(c, here)).sort()).toEqual(
      ['../shared/design/x.md', 'auth-flow-protocol.md', 'style.md'].sort(),
    );
  });
});

const RECORD = /^(\d{4})-[a-z0-9-]+\.md$/;
const HEADINGS = ['## Context', '## Decision', '## Consequences', '## Alternatives'];

describe('decision records', () => {
  const dir = path.join(ROOT, DECISIONS);
  const names = readdirSync(dir).filter((n) => n.endsWith('.md') && n !== 'README.md');
  const index = readFileSync(path.join(dir, 'README.md'), 'utf8');

  it('are numbered records or drafts the lead will number', () => {
    expect(names.filter((n) => !RECORD.test(n) && !/^draft-[a-z0-9-]+\.md$/.test(n))).toEqual([]);
  });

  it('each numbered record is in the index, once, with its number', () => {
    const numbered = names.filter((n) => RECORD.test(n));
    expect(numbered.length).toBeGreaterThan(40);
    const numbers = numbered.map((n) => RECORD.exec(n)![1]);
    expect(new Set(numbers).size).toBe(numbers.length);
    // One row per record: its number first, its file linked from the title.
    const rows = index.split('\n').filter((line) => /^\| \d{4} +\|/.test(line));
    const rowOf = (n: string) =>
      rows.filter((row) => row.startsWith(`| ${n.slice(0, 4)} `) && row.includes(`](${n})`));
    expect(numbered.filter((n) => rowOf(n).length !== 1)).toEqual([]);
    expect(rows).toHaveLength(numbered.length);
  });

  it('each numbered record has its title and the four headings, and says when it is superseded', () => {
    const faults = names
      .filter((n) => RECORD.test(n))
      .flatMap((n) => {
        const text = readFileSync(path.join(dir, n), 'utf8');
        const problems: string[] = [];
        if (!text.startsWith(`# ${RECORD.exec(n)![1]} `)) problems.push(`${n}: title`);
        for (const h of HEADINGS) if (!text.includes(`\n${h}\n`)) problems.push(`${n}: ${h}`);
        const status = /\nStatus: (Accepted|Superseded by (\d{4}))\b/.exec(text);
        if (!status) problems.push(`${n}: status`);
        else if (status[2] && !names.some((m) => m.startsWith(`${status[2]}-`)))
          problems.push(`${n}: superseded by a record that does not exist`);
        return problems;
      });
    expect(faults).toEqual([]);
  });
});

describe('the README command table', () => {
  it('lists every npm script exactly once', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const scripts = Object.keys(
      (
        JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
          scripts: Record<string, string>;
        }
      ).scripts,
    );
    const rows = readme.split('\n').filter((line) => line.startsWith('| `npm '));
    const named = rows.map((row) => /^\| `npm (?:run )?([\w:-]+)/.exec(row)![1]!);
    const count = (s: string) => named.filter((n) => n === s).length;
    expect(scripts.filter((s) => count(s) !== 1)).toEqual([]);
    expect(named.filter((n) => !scripts.includes(n))).toEqual([]);
  });
});
