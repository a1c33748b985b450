import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthConfig } from './config';

/** Methods a cross-origin page may use (protocol §1.1, Hanko's `middleware/cors.go`). */
const METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
/** What the SDK sends besides the CORS-safelisted headers (protocol §1.4). */
const ALLOWED_HEADERS = 'Accept, Authorization, Content-Type, X-Language';
const MAX_AGE_SECONDS = 7200;

/**
 * The origins whose pages may call the provider with credentials: `AUTH_ALLOWED_ORIGINS`
 * (comma-separated), or else the app's own `PUBLIC_URL` origin.
 */
export function allowedOrigins(
  auth: Pick<AuthConfig, 'AUTH_ALLOWED_ORIGINS'>,
  publicUrl: string,
): string[] {
  const list = auth.AUTH_ALLOWED_ORIGINS?.split(',')
    .map((origin) => origin.trim())
    .filter((origin) => origin !== '');
  return (list && list.length > 0 ? list : [publicUrl]).map((origin) => new URL(origin).origin);
}

/**
 * CORS for the provider's routes (protocol §1.1): credentials allowed, only for the
 * configured origins (echoed, never `*`), the SDK's methods and headers, and the response
 * headers it must read exposed: `X-Auth-Token` (in header mode; the SDK looks for it with
 * `getAllResponseHeaders()`, which hides unexposed headers cross-origin), `X-Session-*`,
 * `Retry-After` and the rate-limit headers. Preflights are answered with 204 here, inside
 * the plugin's prefix; a foreign origin gets no CORS headers, so the browser refuses.
 */
export function registerCors(
  app: FastifyInstance,
  options: { origins: readonly string[]; exposeAuthToken: boolean },
) {
  const origins = new Set(options.origins);
  const exposed = [
    'Retry-After',
    'X-RateLimit-Limit',
    'X-RateLimit-Remaining',
    'X-RateLimit-Reset',
    'X-Session-Lifetime',
    'X-Session-Retention',
    ...(options.exposeAuthToken ? ['X-Auth-Token'] : []),
  ].join(', ');

  const allowed = (request: FastifyRequest) => {
    const origin = request.headers.origin;
    return typeof origin === 'string' && origins.has(origin) ? origin : null;
  };

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('vary', 'Origin');
    const origin = allowed(request);
    if (!origin) return;
    reply.header('access-control-allow-origin', origin);
    reply.header('access-control-allow-credentials', 'true');
    reply.header('access-control-expose-headers', exposed);
  });

  app.options('/*', async (request, reply) => {
    if (allowed(request)) {
      reply.header('access-control-allow-methods', METHODS);
      reply.header('access-control-allow-headers', ALLOWED_HEADERS);
      reply.header('access-control-max-age', String(MAX_AGE_SECONDS));
    }
    return reply.code(204).send();
  });
}
