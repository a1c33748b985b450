import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import negotiate from '@fastify/accept-negotiator';
import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { notFoundHandler } from '../http/problem';
import { projectRoot } from '../paths';
import { matchesRoute, ROUTE_HINTS_FILE, type RouteHint } from '../../shared/route-match';
import { tagManagerPages } from './tag-manager';

const root = projectRoot;
const localesDir = path.join(root, 'src/i18n/locales');
// /health is no page and no probe (http/health.ts): a 404, not the app.
const NOT_APP = /^\/(api|auth|locales|health)(\/|$)/;

/** Where the head's first elements go: after the charset, which must come early. */
const HEAD_START = /<meta charset="[^"]*"\s*\/?>|<head>/i;

const attr = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/**
 * index.html for one app path: the page's code, styles and translations (German, the fallback
 * language every visitor loads) are named in the head, so the browser fetches them with the
 * start script instead of after it ran (bench/web.ts). The hints come from the build
 * (`dist/web/.vite/route-hints.json`); without them, or for an unknown path, index.html as built.
 */
export interface IndexHtml {
  /**
   * `language`: the visitor's language when it is not German (startLanguage): its start
   * translations and the page's namespaces are named too, since the app loads them beside the
   * German ones before its first render.
   */
  (pathname: string, language?: string): string;
  /** Whether a route of the app's table matches: `/admin/webhooks/appointment.created` does, `/foo.php` not. */
  isPage(pathname: string): boolean;
}

export function createIndexHtml(webDir: string): IndexHtml {
  const html = readFileSync(path.join(webDir, 'index.html'), 'utf8');
  let hints: RouteHint[] = [];
  try {
    hints = JSON.parse(readFileSync(path.join(webDir, ROUTE_HINTS_FILE), 'utf8')) as RouteHint[];
  } catch {
    // An older build without hints: pages load as before.
  }
  const cache = new Map<string, string>();
  const render = (pathname: string, language = FALLBACK_LANGUAGE) => {
    const hint = hints.find((h) => matchesRoute(h.pattern, pathname));
    const other = language === FALLBACK_LANGUAGE ? null : language;
    if (!hint && !other) return html;
    const key = `${hint?.pattern ?? ''} ${language}`;
    let page = cache.get(key);
    if (page === undefined) {
      // A page's own entry script is the first request (it starts the page's work while the
      // rest loads); its code and translations follow the app's start script and its imports.
      const first = (hint?.entry ?? []).map(
        (src) => `<script type="module" async crossorigin src="${attr(src)}"></script>`,
      );
      const translations = (lng: string, namespaces: readonly string[]) =>
        namespaces.map(
          (ns) =>
            `<link rel="preload" href="/locales/${attr(lng)}/${attr(ns)}.json" as="fetch" crossorigin="anonymous">`,
        );
      const links = [
        ...(hint?.css ?? []).map(
          (href) => `<link rel="stylesheet" crossorigin href="${attr(href)}">`,
        ),
        ...(hint?.js ?? []).map(
          (href) => `<link rel="modulepreload" crossorigin href="${attr(href)}">`,
        ),
        ...translations(FALLBACK_LANGUAGE, hint?.ns ?? []),
        ...(other ? translations(other, [...START_NAMESPACES, ...(hint?.ns ?? [])]) : []),
      ];
      page = html;
      if (first.length) page = page.replace(HEAD_START, (m) => `${m}\n    ${first.join('\n    ')}`);
      if (links.length) page = page.replace('</head>', `    ${links.join('\n    ')}\n  </head>`);
      cache.set(key, page);
    }
    return page;
  };
  return Object.assign(render, {
    isPage: (pathname: string) => hints.some((h) => matchesRoute(h.pattern, pathname)),
  });
}

/** German: every visitor loads it (src/i18n: `fallbackLng`); index.html names its start files. */
const FALLBACK_LANGUAGE = 'de';
/** src/i18n's DEFAULT_NAMESPACES, which index.html preloads in German. */
const START_NAMESPACES = ['translation', 'common'];

/**
 * The language the app will start in, as far as the server can tell (src/i18n/index.ts,
 * `detectionOptions`): `?lng=`, the `i18next` cookie, then the browser's languages (which
 * Accept-Language lists) by their weight, each reduced to its language (`en-US` → `en`);
 * German when none is one of `supported`. The app also reads local storage, which the server
 * does not see: a visitor who chose another language there loads its files a moment later.
 */
export function startLanguage(
  request: { query?: unknown; headers: Record<string, string | string[] | undefined> },
  supported: readonly string[],
): string {
  const pick = (tag: unknown) => {
    const lng = typeof tag === 'string' ? tag.trim().toLowerCase().split(/[-_]/)[0] : undefined;
    return lng && supported.includes(lng) ? lng : undefined;
  };
  const query = (request.query as Record<string, unknown> | undefined)?.lng;
  const cookie = /(?:^|;\s*)i18next=([^;]*)/.exec(String(request.headers.cookie ?? ''))?.[1];
  const fromBrowser = String(request.headers['accept-language'] ?? '')
    .split(',')
    .map((part, i) => {
      const [tag, ...params] = part.split(';');
      const q = Number(/q=([\d.]+)/.exec(params.join(';'))?.[1] ?? 1);
      return { tag, q: Number.isFinite(q) ? q : 0, i };
    })
    .filter((l) => l.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i)
    .map((l) => pick(l.tag))
    .find(Boolean);
  return (
    pick(query) ?? pick(cookie && decodeURIComponent(cookie)) ?? fromBrowser ?? FALLBACK_LANGUAGE
  );
}

/** Serves the translation files and the built web app, with history fallback for client routes. */
export async function registerWeb(app: FastifyInstance, config: Config) {
  // The translation files are read at run time (not built): compressed per answer, in a
  // scope of their own so that nothing else of the server is.
  await app.register(async (locales) => {
    await locales.register(fastifyCompress, {
      global: true,
      encodings: ['br', 'gzip'],
      threshold: 1024,
    });
    await locales.register(fastifyStatic, {
      root: localesDir,
      prefix: '/locales/',
      decorateReply: false,
      maxAge: config.NODE_ENV === 'production' ? '1h' : 0,
    });
  });

  // The languages the app ships: the folders of the translation files.
  const languages = readdirSync(localesDir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);

  const webDir = path.resolve(root, config.WEB_DIST_DIR);
  const hasWeb = existsSync(path.join(webDir, 'index.html'));
  const indexHtml = hasWeb ? createIndexHtml(webDir) : null;
  const tagManager = tagManagerPages(config);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDir,
      prefix: '/',
      wildcard: false,
      index: false,
      cacheControl: false,
      // The build writes `x.br` and `x.gz` beside each text file (vite.config.ts,
      // `precompress`): one is sent by the request's Accept-Encoding, the file itself when
      // neither is accepted or there is no copy, always with `Vary: Accept-Encoding`. The
      // copies are no routes of their own.
      preCompressed: true,
      globIgnore: ['**/*.br', '**/*.gz'],
      // Hashed assets never change; everything else is revalidated.
      setHeaders: (res, filePath) =>
        res.header(
          'cache-control',
          filePath.includes(`${path.sep}assets${path.sep}`)
            ? 'public, max-age=31536000, immutable'
            : 'no-cache',
        ),
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    if (NOT_APP.test(pathname) || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return pathname.startsWith('/api/') || pathname.startsWith('/auth/')
        ? notFoundHandler(request, reply)
        : reply.code(404).send();
    }
    if (!hasWeb) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('Die Web-App ist nicht gebaut: npm run build');
    }
    // A missing file is a 404; an app path whose last part has a dot (a webhook's event type,
    // `/admin/webhooks/appointment.created`) is a page like any other.
    if (/\.[a-z0-9]+$/i.test(pathname) && !indexHtml!.isPage(pathname)) {
      return reply.code(404).send();
    }
    const html = indexHtml!(pathname, startLanguage(request, languages));
    const withTagManager = tagManager(pathname, request.hostname);
    if (!withTagManager) return sendHtml(request, reply, html);
    reply.header('content-security-policy', withTagManager.csp);
    return sendHtml(request, reply, withTagManager.html(html));
  });
}

/** A page's index.html in each encoding, made once per distinct page (a few dozen at most). */
interface EncodedPage {
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
  etag: string;
}
const encodedPages = new Map<string, EncodedPage>();

function encodePage(html: string): EncodedPage {
  let page = encodedPages.get(html);
  if (!page) {
    const identity = Buffer.from(html, 'utf8');
    page = {
      identity,
      br: brotliCompressSync(identity, {
        params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 },
      }),
      gzip: gzipSync(identity, { level: 9 }),
      etag: createHash('sha256').update(identity).digest('base64url').slice(0, 27),
    };
    encodedPages.set(html, page);
  }
  return page;
}

/**
 * The app's index.html (never cached without asking: `no-cache`, with an ETag for a 304),
 * compressed as the request accepts: brotli, else gzip, else as it is.
 */
function sendHtml(request: FastifyRequest, reply: FastifyReply, html: string) {
  const page = encodePage(html);
  // As @fastify/static picks the built files' copies: `*` counts as gzip, brotli first.
  const accept = request.headers['accept-encoding']?.toLowerCase().replace(/\*/g, 'gzip');
  const coding = accept ? negotiate(accept, ['br', 'gzip']) : null;
  const etag = `"${page.etag}${coding ? `-${coding}` : ''}"`;
  reply
    .header('cache-control', 'no-cache')
    // The page names the visitor's language's files (startLanguage).
    .header('vary', 'accept-encoding, accept-language, cookie')
    .header('etag', etag)
    .type('text/html; charset=utf-8');
  const match = request.headers['if-none-match'];
  if (match && match.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) {
    return reply.code(304).send();
  }
  const body = coding ? page[coding] : page.identity;
  if (coding) reply.header('content-encoding', coding);
  return reply.header('content-length', body.length).send(body);
}
