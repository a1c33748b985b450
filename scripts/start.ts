// `npm start`: builds the web app when its sources are newer than the build, then serves.
// The build runs in a child process beside the server's database start (both take seconds).
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { waitForWebBuild } from '../server/web/build-gate';

const built = 'dist/web/index.html';

function newestMtime(entry: string): number {
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(
    stat.mtimeMs,
    ...readdirSync(entry).map((name) => newestMtime(path.join(entry, name))),
  );
}

function buildWeb(): Promise<void> {
  return new Promise((resolve, reject) => {
    const vite = path.resolve('node_modules/vite/bin/vite.js');
    const child = spawn(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`vite build exited with ${code}`)),
    );
  });
}

const sources = ['src', 'index.html', 'vite.config.ts'].filter((p) => existsSync(p));
if (!existsSync(built) || Math.max(...sources.map(newestMtime)) > statSync(built).mtimeMs) {
  waitForWebBuild(buildWeb());
}
await import('../server/main');
