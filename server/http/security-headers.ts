import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import type { Config } from '../config';
import { jitsiOrigins } from '../adapters/video/video';

/**
 * Security headers with a strict CSP on every response. helmet's middleware is built once
 * here; @fastify/helmet built a new one (parsing every directive) on each request.
 */
export function registerSecurityHeaders(app: FastifyInstance, config: Config) {
  const jitsi = jitsiOrigins(config);
  const headers = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // The Jitsi IFrame API script and the room it frames (video meetings).
        scriptSrc: ["'self'", jitsi.script],
        frameSrc: ["'self'", ...jitsi.frames],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        // Only behind TLS: on plain-http hosts it would break every request.
        upgradeInsecureRequests: config.NODE_ENV === 'production' ? [] : null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', (request, reply, done) => {
    headers(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined));
  });
}
