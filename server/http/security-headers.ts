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

/** Where the web app this server delivers sends its API and sign-in calls, when elsewhere. */
export function backendOrigins(
  config: Pick<Config, 'VITE_API_BASE_URL' | 'VITE_AUTH_BASE_URL'>,
): string[] {
  const urls = [config.VITE_API_BASE_URL, config.VITE_AUTH_BASE_URL];
  return [...new Set(urls.flatMap((u) => (u ? [new URL(u).origin] : [])))];
}

/** Hosts a page may load from beyond the app's own (the tag manager's, on its pages). */
export interface CspAllowance {
  script: string[];
  img: string[];
  connect: string[];
}

/** helmet's headers for a policy, recorded once (they are the same for every request). */
function recordHeaders(config: Config, extra: CspAllowance = { script: [], img: [], connect: [] }) {
  const jitsi = jitsiOrigins(config);
  const headers = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // The Jitsi IFrame API script and the room it frames (video meetings).
        scriptSrc: ["'self'", jitsi.script, ...extra.script],
        frameSrc: ["'self'", ...jitsi.frames],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', ...extra.img],
        // The help videos and their captions.
        mediaSrc: ["'self'", ...helpVideoOrigins(config)],
        connectSrc: ["'self'", ...backendOrigins(config), ...extra.connect],
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
  return recorded;
}

/**
 * The CSP of a page that also runs the given hosts' code (the tag manager on the sign-up
 * pages): the same policy with exactly those hosts added.
 */
export function contentSecurityPolicy(config: Config, extra: CspAllowance): string {
  return recordHeaders(config, extra)['content-security-policy']!;
}

/**
 * Security headers with a strict CSP on every response. helmet decides them; they are the
 * same for every request (no nonces), so helmet runs once here and each request only gets the
 * recorded headers: its middleware would rebuild the CSP string on every request.
 */
export function registerSecurityHeaders(app: FastifyInstance, config: Config) {
  const recorded = recordHeaders(config);
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
