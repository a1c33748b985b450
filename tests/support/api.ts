import { inject } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import {
  createTestApp,
  type SeenResponse,
  type TestApp,
  type TestRole,
} from '../../server/testing/test-app';
import { checkAgainstContract } from './contract-validator';
import type { BuildOptions } from '../../server/app';

export interface CallOptions {
  as?: { authorization: string } | null;
  body?: unknown;
  /** Sent as is, for malformed-JSON tests. */
  rawBody?: string;
  query?: Record<string, string | number | boolean>;
  headers?: Record<string, string>;
}

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: LightMyRequestResponse['headers'];
}

/**
 * The app on a fresh database, called in-process; every answer is checked against the
 * contract (status declared, body matching the schema of that status), so a test fails when
 * a response leaves the documented shape: `call` throws at once, and `close` for answers
 * drawn with `app.inject` directly.
 */
export async function createApi(
  options: {
    env?: Record<string, string>;
    now?: () => Date;
    /** Job queue settings: a test clock, fake mail or SMS adapters. */
    jobs?: BuildOptions['jobs'];
  } = {},
) {
  const violations: string[] = [];
  const testApp: TestApp = await createTestApp({
    ...(process.env.DATABASE_URL ? { template: inject('templateDatabase') } : {}),
    ...options,
    onResponse: (seen: SeenResponse) => violations.push(...checkAgainstContract(seen)),
  });

  async function call<T = any>(
    method: string,
    url: string,
    o: CallOptions = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...o.headers };
    if (o.as) headers.authorization = o.as.authorization;
    let payload: string | undefined;
    if (o.rawBody !== undefined) payload = o.rawBody;
    else if (o.body !== undefined) payload = JSON.stringify(o.body);
    if (payload !== undefined) headers['content-type'] ??= 'application/json';
    const query = o.query
      ? Object.fromEntries(Object.entries(o.query).map(([k, v]) => [k, String(v)]))
      : undefined;
    const before = violations.length;
    const res = await testApp.app.inject({ method: method as 'GET', url, headers, payload, query });
    if (violations.length > before) {
      const found = violations.splice(before);
      throw new Error(`Response breaks the contract:\n${found.join('\n')}`);
    }
    const text = res.body;
    return {
      status: res.statusCode,
      body:
        text && res.headers['content-type']?.toString().includes('json') ? JSON.parse(text) : text,
      headers: res.headers,
    };
  }

  return {
    ...testApp,
    call,
    /**
     * Closes the app; answers a test drew with `app.inject` past `call` are checked too, and a
     * contract break among them fails the file here.
     */
    async close() {
      await testApp.close();
      if (violations.length > 0) {
        throw new Error(`Responses break the contract:\n${violations.join('\n')}`);
      }
    },
    signIn: (role: TestRole, opts?: { active?: boolean; coachId?: string }) =>
      testApp.signIn(role, opts),
  };
}

export type Api = Awaited<ReturnType<typeof createApi>>;
