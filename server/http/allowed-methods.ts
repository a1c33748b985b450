import FindMyWay, { type HTTPMethod } from 'find-my-way';
import type { FastifyInstance } from 'fastify';

/**
 * The methods each registered path answers, for a 405 with `Allow` where Fastify only knows
 * "no route": a second router (Fastify's own, find-my-way) fed by the onRoute hook, asked
 * only when a request found no route. Catch-all routes are left out: they would make every
 * path look like it exists.
 */
export function trackAllowedMethods(app: FastifyInstance) {
  // Fastify's defaults (no trailing-slash folding), so both routers agree on what a path is.
  const router = FindMyWay();
  const methods = new Set<HTTPMethod>();
  app.addHook('onRoute', (route) => {
    if (route.url.includes('*')) return;
    for (const method of [route.method].flat() as HTTPMethod[]) {
      methods.add(method);
      try {
        router.on(method, route.url, () => {});
      } catch {
        // A path registered twice for one method (a plugin's own alias): known already.
      }
    }
  });
  /** The methods the request's path has, sorted; empty when the path does not exist. */
  return (url: string): string[] => {
    const path = url.split('?')[0] ?? '/';
    return [...methods].filter((m) => router.find(m, path) !== null).sort();
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Set by the servers that track their routes (trackAllowedMethods). */
    allowedMethods?: (url: string) => string[];
  }
}
