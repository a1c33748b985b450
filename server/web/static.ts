import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import { notFoundHandler } from '../http/problem';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const localesDir = path.join(root, 'src/i18n/locales');
const NOT_APP = /^\/(api|auth|locales)(\/|$)/;

/** Serves the translation files and the built web app, with history fallback for client routes. */
export async function registerWeb(app: FastifyInstance, config: Config) {
  await app.register(fastifyStatic, {
    root: localesDir,
    prefix: '/locales/',
    decorateReply: false,
    maxAge: config.NODE_ENV === 'production' ? '1h' : 0,
  });

  const webDir = path.resolve(root, config.WEB_DIST_DIR);
  const hasWeb = existsSync(path.join(webDir, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDir,
      prefix: '/',
      wildcard: false,
      index: false,
      cacheControl: false,
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
      return pathname.startsWith('/api/') ? notFoundHandler(request, reply) : reply.code(404).send();
    }
    if (!hasWeb) {
      return reply.code(503).type('text/plain; charset=utf-8').send('Die Web-App ist nicht gebaut: npm run build');
    }
    if (/\.[a-z0-9]+$/i.test(pathname)) return reply.code(404).send();
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
