// `npm test`: the static checks (contract, types, lint, format), the unit and integration
// projects, and the end-to-end project, all at the same time. One after the other they left a
// core idle for minutes: the end-to-end files run one at a time and mostly wait for a browser
// and a server, while the checks and the other projects are CPU-bound. The end-to-end run keeps
// the normal priority, so its timeouts see the machine they were written for; everything else
// runs niced into the gaps, its output held back and printed as each part ends.
//
// Each vitest part writes a JSON report; they are merged into test-results/vitest.json, the
// report CI reads for its closing "N passed, N failed" line. Extra arguments go to both vitest
// parts (a part without matching files passes). Plain Node 24 runs this file (type stripping).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const bin = (name: string) => join(root, 'node_modules/.bin', name);
const reportDir = join(root, 'test-results');
const extra = process.argv.slice(2);

interface Part {
  name: string;
  command: string;
  args: string[];
  /** Niced, its output held back until it ends; otherwise streamed at normal priority. */
  background: boolean;
  /** The JSON report this vitest part writes. */
  report?: string;
}

const vitest = (name: string, projects: string[], background: boolean): Part => {
  const report = join(reportDir, `vitest-${name}.json`);
  return {
    name,
    command: bin('vitest'),
    args: [
      'run',
      ...projects.flatMap((p) => ['--project', p]),
      '--passWithNoTests',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
      ...extra,
    ],
    background,
    report,
  };
};

const parts: Part[] = [
  vitest('e2e', ['e2e'], false),
  vitest('unit+integration', ['unit', 'integration'], true),
  // The same commands as the `check:api`, `typecheck`, `lint` and `format:check` scripts.
  {
    name: 'check:api',
    command: bin('tsx'),
    args: ['scripts/check-generated.ts'],
    background: true,
  },
  { name: 'typecheck', command: bin('tsc'), args: ['--noEmit', '-p', '.'], background: true },
  { name: 'lint', command: bin('eslint'), args: ['.'], background: true },
  {
    name: 'format:check',
    command: bin('prettier'),
    args: ['--check', '--log-level', 'warn', '.'],
    background: true,
  },
];

const run = (part: Part) =>
  new Promise<{ name: string; code: number; seconds: number }>((resolve) => {
    const started = Date.now();
    if (part.report) rmSync(part.report, { force: true });
    // nice(1) where it exists (every CI image here has it); the priority is a preference only.
    const [command, args] = part.background
      ? ['nice', ['-n', '10', part.command, ...part.args]]
      : [part.command, part.args];
    const child = spawn(command, args, {
      cwd: root,
      stdio: part.background ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    let ended = false;
    const end = (code: number) => {
      if (ended) return;
      ended = true;
      const seconds = (Date.now() - started) / 1000;
      if (part.background && (code !== 0 || output.trim())) {
        process.stdout.write(`\n── ${part.name} (exit ${code}) ──\n${output}\n`);
      }
      resolve({ name: part.name, code, seconds });
    };
    child.once('error', (error) => {
      output += String(error);
      end(1);
    });
    child.once('close', (code, signal) => end(code ?? (signal ? 1 : 0)));
  });

const results = await Promise.all(parts.map(run));

/** One report as vitest's JSON reporter writes it: counts add up, files are listed together. */
const reports = parts.flatMap((p) =>
  p.report && existsSync(p.report) ? [JSON.parse(readFileSync(p.report, 'utf8'))] : [],
);
if (reports.length > 0) {
  const merged: Record<string, unknown> = { ...reports[0] };
  for (const key of Object.keys(merged)) {
    if (key.startsWith('num')) merged[key] = reports.reduce((s, r) => s + (r[key] ?? 0), 0);
  }
  merged.startTime = Math.min(...reports.map((r) => r.startTime));
  merged.success = reports.every((r) => r.success);
  merged.testResults = reports.flatMap((r) => r.testResults ?? []);
  mkdirSync(reportDir, { recursive: true });
  writeFileSync(join(reportDir, 'vitest.json'), JSON.stringify(merged));
}

const line = results
  .map((r) => `${r.name} ${r.code === 0 ? 'ok' : `FAILED (${r.code})`} ${r.seconds.toFixed(0)} s`)
  .join(', ');
process.stdout.write(`\nnpm test: ${line}\n`);
process.exitCode = results.some((r) => r.code !== 0) ? 1 : 0;
