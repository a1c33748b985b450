import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import { helpVideoUrls } from '../../shared/help-videos';
import type { Config } from '../config';
import { jitsiOrigins } from '../adapters/video/video';

/** The origins of the help page's configured videos (CSP media-src); none configured: none. */
export function helpVideoOrigins(config: Pick<Config, 'VITE_HELP_VIDEO_URLS'>): string[] {
  const urls = helpVideoUrls(config.VITE_HELP_VIDEO_URLS).filter((u): u is string => u !== null);
  return [...new Set(urls.map((u) => new URL(u).origin))];
}

/** helmet's default: a year, subdomains included. */
const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Security headers with a strict CSP on every response. helmet decides them; they are the
 * same for every request (no nonces), so helmet runs once here and each request only gets the
 * recorded headers: its middleware would rebuild the CSP string on every request.
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
        // The help videos and their captions.
        mediaSrc: ["'self'", ...helpVideoOrigins(config)],
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
    // Per request below: only an answer that went over HTTPS may pin the browser to it.
    strictTransportSecurity: false,
  });
  const recorded: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: unknown) =>
      void (recorded[name.toLowerCase()] = String(value)),
    removeHeader: () => undefined,
  };
  headers({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  // Into Fastify's own header object, written with the status line: cheaper than a raw
  // setHeader (which validates each header) per header per request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(recorded);
    // HSTS over HTTPS only (RFC 6797 §7.2: ignored over plain HTTP, and on a plain-http host
    // it is a lie). Behind a proxy, `request.protocol` is X-Forwarded-Proto when TRUST_PROXY
    // believes the proxy.
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
    done();
  });
}
