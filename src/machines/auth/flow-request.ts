import type { AuthApiClient } from '../../api/auth-client';
import type { FlowReply, FlowResponse } from './types';

export type { AuthApiClient };

export interface FlowRequestDeps {
  authApi: AuthApiClient;
  /** Language of the provider's e-mails (X-Language). */
  language?: () => string;
}

/**
 * The minimum a flow answer must have (protocol §5.3 item 2); the rest passes through. A
 * hand-written check rather than zod: zod would add 12 KB gzip to /login (bench/web.ts).
 */
export function isFlowResponse(value: unknown): value is FlowResponse {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  const actions = v.actions;
  return (
    typeof v.name === 'string' &&
    typeof v.status === 'number' &&
    typeof v.csrf_token === 'string' &&
    typeof actions === 'object' &&
    actions !== null &&
    !Array.isArray(actions) &&
    Object.values(actions).every(
      (a) =>
        typeof a === 'object' && a !== null && typeof (a as { href?: unknown }).href === 'string',
    )
  );
}

const numberHeader = (response: Response, name: string) => {
  const value = Number(response.headers.get(name));
  return response.headers.has(name) && Number.isFinite(value) ? value : null;
};

export const FLOW_PATHS = ['/login', '/registration', '/profile'] as const;
export type FlowPath = (typeof FLOW_PATHS)[number];

/**
 * One flow request; the JSON body decides, whatever the status (protocol §5.2). Its own module
 * (no WebAuthn library): src/machines/auth/early-start.ts sends a flow's first request with the
 * app's start script.
 */
export async function postFlow(
  deps: FlowRequestDeps,
  path: FlowPath,
  action: string | undefined,
  body: { input_data: Record<string, unknown>; csrf_token: string } | undefined,
  signal?: AbortSignal,
): Promise<FlowReply> {
  const { data, error, response } = await deps.authApi.POST(path, {
    params: {
      query: action === undefined ? {} : { action },
      header: { 'X-Language': deps.language?.() ?? 'de' },
    },
    ...(body ? { body } : {}),
    ...(signal ? { signal } : {}),
  });
  const answer: unknown = data ?? error;
  if (!isFlowResponse(answer)) throw new Error(`not a flow answer (HTTP ${response.status})`);
  return {
    body: answer,
    status: response.status,
    token: response.headers.get('X-Auth-Token'),
    sessionLifetime: numberHeader(response, 'X-Session-Lifetime'),
    sessionRetention: response.headers.get('X-Session-Retention') === 'session' ? 'session' : null,
    retryAfter: numberHeader(response, 'Retry-After'),
  };
}

/**
 * Runs one of a flow answer's actions. Its href is root-relative to the provider's base URL:
 * "/login?action=name%40uuid".
 */
export function postAction(
  deps: FlowRequestDeps,
  href: string,
  body: { input_data: Record<string, unknown>; csrf_token: string },
  signal?: AbortSignal,
): Promise<FlowReply> {
  const url = new URL(href, 'http://provider.invalid');
  const path = url.pathname as FlowPath;
  if (!FLOW_PATHS.includes(path)) throw new Error(`unknown flow path ${url.pathname}`);
  return postFlow(deps, path, url.searchParams.get('action') ?? undefined, body, signal);
}
