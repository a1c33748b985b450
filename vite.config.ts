import { readFileSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import { build, defineConfig, type Plugin, type Rollup } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { EARLY_LOGIN_PATHS, ROUTE_HINTS_FILE, type RouteHint } from './shared/route-match.ts';

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
 * all of core; the client sign-up uses zod/mini (src/forms/client-signup.validation.ts).
 * Shared, core would be one chunk holding everything classic needs, 14 KB gzip on
 * /client-signup. Separate, the sign-up's copy is tree-shaken to what zod/mini really uses
 * (bench/web.ts). Only builds: the dev server and tests load zod as it is.
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
      const resolved = await this.resolve(
        source,
        fromMini ? importer!.slice(0, -TAG.length) : importer,
        {
          ...options,
          skipSelf: true,
        },
      );
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

/**
 * `use-sync-external-store/shim` (wouter, @xstate/react) is React's own `useSyncExternalStore`
 * in React 18 and later; the shim's fallback for older React is dead weight on every page.
 */
function nativeSyncExternalStore(): Plugin {
  const ID = '\0native-use-sync-external-store';
  return {
    name: 'sprechstunde:native-use-sync-external-store',
    apply: 'build',
    enforce: 'pre',
    resolveId(source) {
      return /^use-sync-external-store\/shim(\/index\.js)?$/.test(source) ? ID : null;
    },
    load(id) {
      return id === ID ? `export { useSyncExternalStore } from 'react';` : null;
    },
  };
}

/**
 * src/early-login.ts as one file of its own (`assets/early-login-<hash>.js`, no imports): the
 * sign-in pages run it `async` ahead of the app's start script, and it sends the login flow's first
 * requests the moment it arrives, so the form does not wait for the app's code. A separate build,
 * not a second entry: an entry shares modules with the app through common chunks, and the script
 * would wait for them. Its few modules (openapi-fetch, the flow request) are loaded twice on those
 * pages; that is the price of not waiting.
 */
async function buildEarlyLogin(): Promise<{ fileName: string; code: string }> {
  const result = await build({
    configFile: false,
    logLevel: 'warn',
    build: {
      write: false,
      emptyOutDir: false,
      sourcemap: false,
      modulePreload: false,
      rollupOptions: {
        input: path.resolve(import.meta.dirname, 'src/early-login.ts'),
        output: { format: 'es', entryFileNames: 'assets/early-login-[hash].js' },
      },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[];
  const chunks = outputs.flatMap((o) => o.output).filter((c) => c.type === 'chunk');
  if (chunks.length !== 1)
    throw new Error(`src/early-login.ts built into ${chunks.length} files, not one`);
  return { fileName: chunks[0]!.fileName, code: chunks[0]!.code };
}

/**
 * Writes, for every route of src/app/routes.ts, the files its page needs beyond index.html's
 * (`dist/web/.vite/route-hints.json`). The server puts them into the index.html it answers for
 * that route as `modulepreload`/`preload` links, so a page's code and translations load with
 * the start script instead of after it ran (bench/web.ts).
 *
 * The route table is read as text: `const X = lazyPage(() => import('…'))`, the option groups
 * (`const SIGN_IN: PageOptions = { namespaces: […] }`, `const staff = (…) => ({ namespaces: […] })`)
 * and the entries `page(path, tKey(…), X, GROUP)`. A route it cannot read gets no hints (the
 * page still loads, only later); a table it cannot read at all fails the build.
 *
 * The sign-in pages (EARLY_LOGIN_PATHS) also get src/early-login.ts, built as a file of its own
 * (buildEarlyLogin), which sends the login flow's first requests while the app's code loads.
 */
function routeHints(): Plugin {
  const routesFile = path.resolve(import.meta.dirname, 'src/app/routes.ts');
  let base = '/';
  return {
    name: 'sprechstunde:route-hints',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    async generateBundle(_options, bundle) {
      const early = await buildEarlyLogin();
      this.emitFile({ type: 'asset', fileName: early.fileName, source: early.code });
      const source = readFileSync(routesFile, 'utf8');
      const modules = new Map<string, string>();
      for (const m of source.matchAll(
        /const (\w+) = lazyPage\(\s*\(\) =>\s*import\('([^']+)'\)/g,
      )) {
        modules.set(m[1]!, path.resolve(path.dirname(routesFile), m[2]!));
      }
      const entries: Array<{ pattern: string; component: string; ns: string[] }> = [];
      // Option groups: `const SIGN_IN: PageOptions = { namespaces: [...] }` or a function
      // `const staff = (roles) => ({ namespaces: [...], ... })`; a route names one by its name.
      const groups = new Map<string, string[]>();
      for (const m of source.matchAll(/const (\w+)(?::\s*PageOptions)?\s*=\s*([^;]*);/g)) {
        const ns = /namespaces:\s*\[([^\]]*)\]/.exec(m[2]!)?.[1];
        groups.set(m[1]!, ns ? [...ns.matchAll(/'([^']+)'/g)].map((n) => n[1]!) : []);
      }
      const table = source.slice(source.indexOf('export const routes'));
      const entry = /page\(\s*'([^']+)',\s*tKey\('[^']*'\),\s*(\w+)(?:,\s*(\w+))?/g;
      for (const m of table.matchAll(entry)) {
        entries.push({
          pattern: m[1]!,
          component: m[2]!,
          ns: m[3] ? (groups.get(m[3]) ?? []) : [],
        });
      }
      // Reading the table as text is the price of not importing React into the build config:
      // a table this parser no longer understands fails the build instead of silently losing
      // every page's preload links.
      if (entries.filter((e) => modules.has(e.component)).length < 10) {
        this.error(
          `route hints: read ${entries.length} routes from src/app/routes.ts; is page(...) still its form?`,
        );
      }

      // A chunk that only imports styles is dropped by Vite after this hook (its CSS stays):
      // naming it would make every such page request a script that does not exist.
      const pureCss = (c: Rollup.OutputChunk) =>
        (c.viteMetadata?.importedCss.size ?? 0) > 0 &&
        c.code.replace(/\/\/# sourceMappingURL=\S*/, '').trim() === '';
      const chunks = Object.values(bundle).filter(
        (c): c is Rollup.OutputChunk => c.type === 'chunk',
      );
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      const closure = (start: string[]) => {
        const seen = new Set<string>();
        const visit = (file: string) => {
          if (seen.has(file)) return;
          seen.add(file);
          for (const next of byFile.get(file)?.imports ?? []) visit(next);
        };
        start.forEach(visit);
        return seen;
      };
      const inIndex = closure(chunks.filter((c) => c.isEntry).map((c) => c.fileName));
      const hints: RouteHint[] = entries.map(({ pattern, component, ns }) => {
        const module = modules.get(component);
        const chunk = module
          ? chunks.find(
              (c) => c.isDynamicEntry && c.facadeModuleId?.replace(/\.tsx?$/, '') === module,
            )
          : undefined;
        const entry = EARLY_LOGIN_PATHS.includes(pattern) ? [early.fileName] : [];
        const files = chunk ? [...closure([chunk.fileName])].filter((f) => !inIndex.has(f)) : [];
        const css = files.flatMap((f) => [...(byFile.get(f)?.viteMetadata?.importedCss ?? [])]);
        return {
          pattern,
          entry: entry.map((f) => base + f),
          js: files.filter((f) => !pureCss(byFile.get(f)!)).map((f) => base + f),
          css: css.map((f) => base + f),
          ns,
        };
      });
      this.emitFile({ type: 'asset', fileName: ROUTE_HINTS_FILE, source: JSON.stringify(hints) });
    },
  };
}

/**
 * Brotli and gzip copies of every text file of the build (`x.js.br`, `x.js.gz` beside `x.js`),
 * made once here at the highest levels instead of per request; the server picks one by the
 * request's Accept-Encoding (server/web/static.ts). Source maps are left as they are (only
 * developer tools ask for them), and so is the build's own `.vite` folder (read by the server).
 * A copy that is not smaller than its file is not written.
 */
const precompress = () =>
  compression({
    include: /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest)$/,
    exclude: /(^|[/\\])\.vite[/\\]/,
    algorithms: [
      defineAlgorithm('brotliCompress', { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
      defineAlgorithm('gzip', { level: 9 }),
    ],
    threshold: 0,
    skipIfLargerOrEqual: true,
    logLevel: 'silent',
  });

export default defineConfig({
  plugins: [react(), isolateZodMini(), nativeSyncExternalStore(), routeHints(), precompress()],
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    sourcemap: true,
    // Every browser the app supports has <link rel="modulepreload">.
    modulePreload: { polyfill: false },
  },
  server: { port: 5173, proxy },
  preview: { port: 4173, proxy },
});
