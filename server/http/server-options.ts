import type { Server } from 'node:http';
import type { FastifyHttpOptions } from 'fastify';
import type { Config } from '../config';

/**
 * Limits of the HTTP server, the same for the app and the stand-alone auth provider
 * (config.ts says what each one does). Node checks its header and request timeouts every
 * `connectionsCheckingInterval`, 30 s by default; a quarter of the headers timeout (at most
 * 1 s) cuts a slow client close to its deadline.
 */
export function httpServerOptions(config: Config) {
  const checkEvery = Math.max(25, Math.min(1000, Math.floor(config.HTTP_HEADERS_TIMEOUT_MS / 4)));
  return {
    bodyLimit: config.HTTP_BODY_LIMIT_BYTES,
    requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
    keepAliveTimeout: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    connectionTimeout: config.HTTP_IDLE_TIMEOUT_MS,
    http: {
      headersTimeout: config.HTTP_HEADERS_TIMEOUT_MS,
      connectionsCheckingInterval: checkEvery,
    },
  } satisfies FastifyHttpOptions<Server>;
}
