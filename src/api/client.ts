import createClient, { type Client } from 'openapi-fetch';
import type { paths } from '../../shared/contract/product';
import { DEDUPE_WINDOW_MS, dedupingFetch } from './dedupe';
import {
  bearerMiddleware,
  errorMiddleware,
  type ErrorMiddlewareOptions,
  type TokenGetter,
} from './middleware';

export interface ApiClientOptions extends ErrorMiddlewareOptions {
  /** Returns the session's access token, if any; called for every request. */
  getToken: TokenGetter;
  /** Defaults to `/api` (same origin; the Vite dev server proxies it). */
  baseUrl?: string;
  /** Replaces `globalThis.fetch` (tests). */
  fetch?: typeof globalThis.fetch;
  /** Identical GETs within this many ms share one answer (default 2 s; 0 = off). */
  dedupeWindowMs?: number;
  /** The de-duplication's clock (tests). */
  now?: () => number;
}

/**
 * The typed client for the product API (`openapi/product.yaml`). Calls resolve with `data` for
 * 2xx answers and reject with `ApiError` or `NetworkError` otherwise, so machines can use them
 * directly in `fromPromise` actors. Created once in src/app and handed to the actor factories.
 * Identical GETs within 2 s share one answer (dedupe.ts).
 */
export function createApiClient<Paths extends object = paths>(
  options: ApiClientOptions,
): Client<Paths> {
  // Looked up per call, so a fetch replaced after start (tests) is the one used.
  const base = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const windowMs = options.dedupeWindowMs ?? DEDUPE_WINDOW_MS;
  const client = createClient<Paths>({
    baseUrl: options.baseUrl ?? '/api',
    fetch:
      windowMs > 0
        ? dedupingFetch(base, { windowMs, ...(options.now ? { now: options.now } : {}) })
        : base,
  });
  client.use(
    bearerMiddleware(options.getToken),
    errorMiddleware(options.onNetworkError ? { onNetworkError: options.onNetworkError } : {}),
  );
  return client;
}

export type ApiClient = Client<paths>;
