import createClient, { type Client } from 'openapi-fetch';
import type { paths } from '../../shared/contract/product';
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
}

/**
 * The typed client for the product API (`openapi/product.yaml`). Calls resolve with `data` for
 * 2xx answers and reject with `ApiError` or `NetworkError` otherwise, so machines can use them
 * directly in `fromPromise` actors. Created once in src/app and handed to the actor factories.
 */
export function createApiClient<Paths extends object = paths>(
  options: ApiClientOptions,
): Client<Paths> {
  const client = createClient<Paths>({
    baseUrl: options.baseUrl ?? '/api',
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  client.use(
    bearerMiddleware(options.getToken),
    errorMiddleware(options.onNetworkError ? { onNetworkError: options.onNetworkError } : {}),
  );
  return client;
}

export type ApiClient = Client<paths>;
