// `npm start`: builds the web app when its sources are newer than the build, then serves.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const built = 'dist/web/index.html';

function newestMtime(entry: string): number {
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(
    stat.mtimeMs,
    ...readdirSync(entry).map((name) => newestMtime(path.join(entry, name))),
  );
}

const sources = ['src', 'index.html', 'vite.config.ts'].filter((p) => existsSync(p));
if (!existsSync(built) || Math.max(...sources.map(newestMtime)) > statSync(built).mtimeMs) {
  const { build } = await import('vite');
  await build({ logLevel: 'warn' });
}
await import('../server/main');
