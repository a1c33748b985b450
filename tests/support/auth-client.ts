import { readFileSync } from 'node:fs';
import { dereference } from '@apidevtools/json-schema-ref-parser';
import { desc, eq } from 'drizzle-orm';
import { expect, inject } from 'vitest';
import { parse } from 'yaml';
import { communications } from '../../server/db/schema/index';
import { createTestApp, type SeenResponse, type TestApp } from '../../server/testing/test-app';
import { ajv } from './contract-validator';
import type { RateRules } from '../../server/http/rate-limit';
import type { BuildOptions } from '../../server/app';
import type { Database } from '../../server/db/client';

export interface FlowState {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  name: string;
  csrf_token: string;
  payload?: Record<string, any>;
  actions: Record<string, { href: string; action: string; inputs: Record<string, any> }>;
  error?: { code: string; message: string };
  [key: string]: any;
}

let schemas: Promise<Record<string, any>> | undefined;
/** The component schemas of openapi/auth.yaml, dereferenced. */
export const authSchemas = () =>
  (schemas ??= dereference(parse(readFileSync('openapi/auth.yaml', 'utf8'))).then(
    (doc: any) => doc.components.schemas,
  ));

/** Throws when `value` breaks the named schema of the auth contract. */
export async function expectSchema(name: string, value: unknown) {
  const schema = (await authSchemas())[name];
  const validate = ajv.getSchema(name) ?? (ajv.addSchema(schema, name), ajv.getSchema(name)!);
  if (!validate(value)) {
    throw new Error(`${name}: ${JSON.stringify(validate.errors)}\n${JSON.stringify(value)}`);
  }
}

/** The app with the real provider at /auth, plus a small client that drives flows like the SDK. */
export async function createAuthTestApp(
  options: {
    env?: Record<string, string>;
    rateLimits?: Partial<RateRules>;
    /** Sees every answer (e.g. the contract check of the product API). */
    onResponse?: (seen: SeenResponse) => void;
    /** Job queue settings (e.g. a test clock for retries of sign-in mails). */
    jobs?: BuildOptions['jobs'];
    /** The server's and the provider's clock (ctx.now in flows); default the real one. */
    now?: () => Date;
    /** An existing database (a restored copy) instead of a fresh one. */
    database?: Database;
  } = {},
) {
  const testApp: TestApp = await createTestApp({
    ...(process.env.DATABASE_URL ? { template: inject('templateDatabase') } : {}),
    withAuthProvider: true,
    ...options,
  });

  async function post(
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<FlowState> {
    const res = await testApp.app.inject({
      method: 'POST',
      url: `/auth${url}`,
      headers: { 'content-type': 'application/json', ...headers },
      payload: body === undefined ? '' : JSON.stringify(body),
    });
    const json = JSON.parse(res.body);
    expect(res.statusCode).toBe(json.status);
    await expectSchema('FlowResponse', json);
    return { ...json, status: res.statusCode, headers: res.headers };
  }

  const start = (flow: 'login' | 'registration') => post(`/${flow}`);

  /** Runs an action of a state, like `state.actions[name].run(input)` in the SDK. */
  function act(state: FlowState, name: string, input: Record<string, unknown> = {}) {
    const action = state.actions[name];
    if (!action)
      throw new Error(
        `${state.name} offers no ${name} (has ${Object.keys(state.actions).join(', ')})`,
      );
    return post(action.href, { input_data: input, csrf_token: state.csrf_token });
  }

  /** Starts a flow and answers preflight like a browser without WebAuthn. */
  async function begin(flow: 'login' | 'registration') {
    const first = await start(flow);
    expect(first.name).toBe('preflight');
    return act(first, 'register_client_capabilities', {
      webauthn_available: false,
      webauthn_conditional_mediation_available: false,
      webauthn_platform_authenticator_available: false,
    });
  }

  async function mails(to: string) {
    return testApp.database.db
      .select()
      .from(communications)
      .where(eq(communications.recipient, to))
      .orderBy(desc(communications.createdAt));
  }

  /** The code of the newest mail to `to`. */
  async function lastCode(to: string): Promise<string> {
    const [mail] = await mails(to);
    const code = /Einmalcode für Sprechstunde: (\d{6})/.exec(mail?.body ?? '')?.[1];
    if (!code) throw new Error(`no passcode mail to ${to}`);
    return code;
  }

  /** Registration with passcode and (optionally) a password; returns the success state. */
  async function register(email: string, password?: string) {
    const init = await begin('registration');
    const pc = await act(init, 'register_login_identifier', { email });
    expect(pc.name).toBe('passcode_confirmation');
    const pw = await act(pc, 'verify_passcode', { code: await lastCode(email) });
    expect(pw.name).toBe('password_creation');
    const done = password
      ? await act(pw, 'register_password', { new_password: password })
      : await act(pw, 'skip');
    expect(done.name).toBe('success');
    return done;
  }

  return { ...testApp, post, start, act, begin, mails, lastCode, register };
}

export type AuthTestApp = Awaited<ReturnType<typeof createAuthTestApp>>;

let counter = 0;
export const uniqueEmail = (prefix = 'person') =>
  `${prefix}-${Date.now().toString(36)}-${(counter++).toString(36)}@example.org`;
