import type { Middleware } from 'openapi-fetch';
import { NetworkError, apiErrorFromResponse, isAbortError } from './errors';

export type TokenGetter = () => string | null | undefined | Promise<string | null | undefined>;

/** Adds `Authorization: Bearer <token>` when `getToken()` yields one and the call has none. */
export function bearerMiddleware(getToken: TokenGetter): Middleware {
  return {
    async onRequest({ request }) {
      if (request.headers.has('Authorization')) return undefined;
      const token = await getToken();
      if (!token) return undefined;
      request.headers.set('Authorization', `Bearer ${token}`);
      return request;
    },
  };
}

export interface ErrorMiddlewareOptions {
  /** Called once per request that failed without an answer (the app shows the network banner). */
  onNetworkError?: (error: NetworkError) => void;
}

/**
 * Makes every call either resolve with a 2xx response or reject:
 * - non-2xx → `ApiError` (status, code, title, detail, field errors from problem+json);
 * - fetch rejected → `NetworkError`, reported to `onNetworkError`;
 * - aborted (AbortSignal) → the AbortError unchanged, not reported: stopping an actor is no failure.
 */
export function errorMiddleware(options: ErrorMiddlewareOptions = {}): Middleware {
  return {
    async onResponse({ request, response }) {
      if (response.ok) return undefined;
      throw await apiErrorFromResponse(response, request);
    },
    onError({ request, error }) {
      if (isAbortError(error)) return undefined;
      const networkError = new NetworkError(
        `Network request failed: ${request.method} ${request.url}`,
        {
          cause: error,
          request: { method: request.method, url: request.url },
        },
      );
      options.onNetworkError?.(networkError);
      return networkError;
    },
  };
}
