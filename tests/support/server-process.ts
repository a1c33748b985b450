import { spawn } from 'node:child_process';
import path from 'node:path';
import { build } from 'esbuild';
import { freePort } from '../../server/testing/scratch-postgres';

const root = path.resolve(import.meta.dirname, '../..');
const outdir = path.join(root, 'dist/test-processes');

/**
 * The server's start commands as plain JavaScript (as `npm start` runs the server), built
 * from the current sources into a directory of their own: loading ~150 TypeScript files
 * through tsx at every start of a process would take most of a test's time.
 */
export async function buildServerProcesses() {
  await build({
    entryPoints: {
      main: path.join(root, 'server/main.ts'),
      'rotate-key': path.join(root, 'server/auth-provider/rotate-key.ts'),
    },
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    packages: 'external',
    logLevel: 'warning',
  });
  return { main: path.join(outdir, 'main.js'), rotateKey: path.join(outdir, 'rotate-key.js') };
}

export interface ServerProcess {
  url: string;
  port: number;
  /** What the process printed (its last 16 kB), for a failure message. */
  output(): string;
  exited(): string | null;
  /** SIGTERM, as a process manager stops it; resolves when the process ended (its exit code). */
  stop(): Promise<string>;
  kill(): void;
}

/**
 * The real server (`server/main.ts` built by buildServerProcesses) in a child process on a
 * port of its own, with `env` on top of the caller's environment. Resolves once `/readyz`
 * answers 200.
 */
export async function startServerProcess(
  main: string,
  env: Record<string, string>,
): Promise<ServerProcess> {
  const port = await freePort();
  let output = '';
  let exit: string | null = null;
  const child = spawn(process.execPath, [main], {
    cwd: root,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => (output = (output + chunk.toString('utf8')).slice(-16_384));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const ended = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) => resolve((exit = signal ?? `exit ${code}`))),
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 150_000;
  for (;;) {
    if (exit) throw new Error(`the server ended at start (${exit}):\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server did not become ready:\n${output}`);
    }
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    port,
    output: () => output,
    exited: () => exit,
    async stop() {
      if (exit) return exit;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      const how = await ended;
      clearTimeout(timer);
      return how;
    },
    kill: () => {
      if (!exit) child.kill('SIGKILL');
    },
  };
}
