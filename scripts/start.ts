// `npm start`: brings the web app and the server bundle up to date with their sources, then
// runs the server. Plain Node 24 runs this file (type stripping); the web build runs in a
// child process beside the server's database start, and the server waits for it before it
// lists the built files (server/web/build-gate.ts).
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { waitForWebBuild } from '../server/web/build-gate.ts';
import {
  buildServerBundle,
  newestMtime,
  SERVER_BUNDLE,
  serverBundleIsStale,
} from './server-bundle.ts';

const root = path.resolve(import.meta.dirname, '..');
const builtWeb = path.join(root, 'dist/web/index.html');

function buildWeb(): Promise<void> {
  return new Promise((resolve, reject) => {
    const vite = path.join(root, 'node_modules/vite/bin/vite.js');
    const child = spawn(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
      cwd: root,
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`vite build exited with ${code}`)),
    );
  });
}

const webSources = ['src', 'index.html', 'vite.config.ts'].map((p) => path.join(root, p));
if (
  !existsSync(builtWeb) ||
  Math.max(...webSources.map(newestMtime)) > statSync(builtWeb).mtimeMs
) {
  waitForWebBuild(buildWeb());
}
if (serverBundleIsStale()) await buildServerBundle();
await import(pathToFileURL(SERVER_BUNDLE).href);
