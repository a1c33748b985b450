import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const PREFIX = '/api/';
const METHODS = 'GET, POST, PUT, PATCH, DELETE';
/** What the web app sends besides the CORS-safelisted headers. */
const ALLOWED_HEADERS = 'Authorization, Content-Type, Idempotency-Key, If-Match, X-Request-Id';
/** What the web app reads of an answer besides the CORS-safelisted headers. */
const EXPOSED_HEADERS =
  'Content-Disposition, ETag, Retry-After, X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset';
const MAX_AGE_SECONDS = 7200;

/**
 * CORS for the product API, for a web app served from another origin: only the listed
 * origins, each echoed (never `*`); every other origin gets no CORS headers and the browser
 * refuses the answer. No `Allow-Credentials`: the API reads the session token from the
 * Authorization header only, never a cookie, so a foreign page has no cookie to ride on (the
 * sign-in provider, whose session cookie it is, allows credentials for its own origins).
 * Preflights are answered 204 before any route or permission check (they carry no token).
 * No origins: nothing is registered and the API stays same-origin only.
 */
export function registerApiCors(app: FastifyInstance, origins: readonly string[]) {
  if (origins.length === 0) return;
  const allowed = new Set(origins);
  const allowedOrigin = (request: FastifyRequest) => {
    const origin = request.headers.origin;
    return typeof origin === 'string' && allowed.has(origin) ? origin : null;
  };

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.url.startsWith(PREFIX)) return;
    reply.header('vary', 'Origin');
    const origin = allowedOrigin(request);
    if (origin) {
      reply.header('access-control-allow-origin', origin);
      reply.header('access-control-expose-headers', EXPOSED_HEADERS);
    }
    if (request.method !== 'OPTIONS' || !request.headers['access-control-request-method']) return;
    if (origin) {
      reply.header('access-control-allow-methods', METHODS);
      reply.header('access-control-allow-headers', ALLOWED_HEADERS);
      reply.header('access-control-max-age', String(MAX_AGE_SECONDS));
    }
    return reply.code(204).send();
  });
}
