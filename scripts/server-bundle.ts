// The server as one ES module (dist/server/main.js, packages left to node_modules), so that
// `npm start` runs plain JavaScript: loading the server's ~150 TypeScript files through tsx's
// module hooks took 3–4 s of a start. Built by `prepare` (npm ci) and again by scripts/start.ts
// when the sources are newer. Runs as is under Node 24 (type stripping), without tsx.
import path from 'node:path';
import { build } from 'esbuild';
import { isStale } from './freshness.ts';

const root = path.resolve(import.meta.dirname, '..');
export const SERVER_BUNDLE = path.join(root, 'dist/server/main.js');
/** `npm run db:migrate` as plain JavaScript, for the image (which has neither tsx nor npm). */
export const MIGRATE_BUNDLE = path.join(root, 'dist/server/migrate.js');
/** What the bundle is made of (the server shares modules with the browser app through shared/). */
const INPUTS = ['server', 'shared', 'package-lock.json', 'tsconfig.json'];

export const serverBundleIsStale = () =>
  isStale(
    SERVER_BUNDLE,
    INPUTS.map((input) => path.join(root, input)),
  );

export async function buildServerBundle(): Promise<void> {
  await build({
    entryPoints: {
      main: path.join(root, 'server/main.ts'),
      migrate: path.join(root, 'server/db/migrate-cli.ts'),
    },
    outdir: path.dirname(SERVER_BUNDLE),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
}

if (import.meta.main) await buildServerBundle();
