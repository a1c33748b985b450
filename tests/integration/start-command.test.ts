import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// The README's `npm start`, as a newcomer runs it: plain Node runs scripts/start.ts, which
// runs the server bundle (dist/server, built by `prepare` or here) on an empty embedded
// database filled from the installed template, with demo data, and serves the web app.
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

describe('npm start', () => {
  it('serves the German app, the contract and the demo sign-in on an empty database', async () => {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1' };
    env.PGLITE_DIR = path.join(dataDir, 'pglite');
    delete env.DATABASE_URL;
    delete env.NODE_ENV;
    let output = '';
    child = spawn(process.execPath, [path.join(root, 'scripts/start.ts')], { cwd: root, env });
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
  }, 120_000);
});
