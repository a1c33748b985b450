import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// The README's `npm start`, as a newcomer runs it: npm runs scripts/start.ts with plain Node,
// which runs the server bundle (dist/server, built by `prepare` or here) on an empty embedded
// database filled from the installed template, with demo data, and serves the web app. A
// process manager then stops it with SIGTERM to the PID it started: npm's.
const root = path.resolve(import.meta.dirname, '../..');
let child: ChildProcess | undefined;
const dataDir = mkdtempSync(path.join(tmpdir(), 'spr-start-'));
afterAll(() => {
  child?.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** Whether nothing listens on the port any more (a listen on it succeeds). */
const portIsFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = createServer()
      .once('error', () => resolve(false))
      .listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

describe('npm start', () => {
  it('serves the German app, the contract and the demo sign-in on an empty database, and stops on SIGTERM to its PID', async () => {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1' };
    env.PGLITE_DIR = path.join(dataDir, 'pglite');
    delete env.DATABASE_URL;
    delete env.NODE_ENV;
    let output = '';
    child = spawn('npm', ['start'], { cwd: root, env });
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 90_000;
    let home: Response | undefined;
    while (!home && Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`npm start ended:\n${output}`);
      home = await fetch(`${base}/`).catch(() => undefined);
      if (!home) await new Promise((r) => setTimeout(r, 200));
    }
    expect(home?.status, output).toBe(200);
    expect(await home!.text()).toContain('<html lang="de"');
    expect((await fetch(`${base}/api/openapi.json`)).status).toBe(200);
    // Once it listens, the terminal tells a newcomer where everything is, in readable lines.
    for (let i = 0; i < 50 && !output.includes('Entwicklungs-Postfach unter'); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(output).toContain(`Sprechstunde läuft: ${base}`);
    expect(output).toContain(`Entwicklungs-Postfach (Anmeldecodes): ${base}/dev/mailbox`);
    expect(output).toMatch(/Klient:innen +200\n/);
    expect(output).toMatch(/Coaches +5\n/);
    expect(output).toMatch(/Admin +admin@sprechstunde\.demo/);
    expect(output).toContain('klient@sprechstunde.demo');
    expect(output).toMatch(/INFO.*ready/);
    expect(output.split('\n').filter((line) => line.startsWith('{'))).toEqual([]);

    // PORT alone moved the public URL, so the app's own pages may call the provider (CORS).
    const jwks = await fetch(`${base}/auth/.well-known/jwks.json`, {
      headers: { origin: `http://localhost:${port}` },
    });
    expect(jwks.headers.get('access-control-allow-origin')).toBe(`http://localhost:${port}`);
    await fetch(`${base}/api/openapi.json`);
    // The readable log: one line per entry (pino-pretty's multi-line fields are indented by 4).
    expect(output.split('\n').filter((line) => /^ {4}\S/.test(line))).toEqual([]);

    // SIGTERM to npm's PID reaches the server: it drains, closes and says so; npm exits with
    // it, and nothing is left on the port.
    const exited = new Promise<number | null>((resolve) =>
      child!.once('exit', (code) => resolve(code)),
    );
    const signalled = Date.now();
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    await expect.poll(() => portIsFree(port), { timeout: 10_000, interval: 100 }).toBe(true);
    expect(Date.now() - signalled).toBeLessThan(10_000);
    expect(output).toMatch(
      /INFO: shut down: requests drained, server and database closed \{"signal":"SIGTERM"/,
    );
  }, 120_000);
});
