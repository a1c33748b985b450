import { readFileSync } from 'node:fs';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

// The API, the auth provider and the translation files are served by the Fastify server
// (`npm start`, port 3000). In development Vite serves the app and forwards those paths.
// Keys starting with ^ are regular expressions: `/api` must not swallow e.g. `/apiary`.
const backend = process.env.SPRECHSTUNDE_BACKEND_URL ?? 'http://localhost:3000';
const proxy = {
  '^/api(/|$)': { target: backend, changeOrigin: false },
  '^/auth(/|$)': { target: backend, changeOrigin: false },
  '^/locales/': { target: backend, changeOrigin: false },
};

/**
 * `zod/mini` gets its own copy of zod's modules in the build (ids tagged `?zod-mini`).
 *
 * zod/mini and classic zod share `zod/v4/core`. Staff pages use classic zod, which needs nearly
 * all of core; the client sign-up uses zod/mini (src/machines/client-signup.validation.ts).
 * Shared, core would be one chunk holding everything classic needs, 14 KB gzip on
 * /client-signup. Separate, the sign-up's copy is tree-shaken to what zod/mini really uses
 * (bench/web.ts, issue #6). Only builds: the dev server and tests load zod as it is.
 */
function isolateZodMini(): Plugin {
  const TAG = '?zod-mini';
  return {
    name: 'sprechstunde:isolate-zod-mini',
    apply: 'build',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      const fromMini = importer?.endsWith(TAG) ?? false;
      if (source !== 'zod/mini' && !fromMini) return null;
      const resolved = await this.resolve(source, fromMini ? importer!.slice(0, -TAG.length) : importer, {
        ...options,
        skipSelf: true,
      });
      if (!resolved || resolved.external || !/[/\\]node_modules[/\\]zod[/\\]/.test(resolved.id)) {
        return resolved;
      }
      // zod declares no side effects outside its `compile` entry, which zod/mini never imports.
      return { ...resolved, id: `${resolved.id}${TAG}`, moduleSideEffects: false };
    },
    load(id) {
      return id.endsWith(TAG) ? readFileSync(id.slice(0, -TAG.length), 'utf8') : null;
    },
  };
}

export default defineConfig({
  plugins: [react(), isolateZodMini()],
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    sourcemap: true,
  },
  server: { port: 5173, proxy },
  preview: { port: 4173, proxy },
});
