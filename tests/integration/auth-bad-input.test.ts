import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { authFlows } from '../../server/db/schema/index';
import { parse } from 'yaml';
import {
  createAuthTestApp,
  expectSchema,
  uniqueEmail,
  type AuthTestApp,
} from '../support/auth-client';

// A sweep over every operation of openapi/auth.yaml with malformed input, generated from the
// contract: parameters and body fields that break their type, length or pattern, text that
// PostgreSQL cannot store (NUL, lone surrogates), bodies that are no JSON or the wrong JSON;
// and, inside running flows, every declared input of every action offered in the first real
// state. No answer may be a 5xx; flow calls answer in the flow protocol's shape.

let t: AuthTestApp;
beforeAll(async () => {
  t = await createAuthTestApp({
    // Usernames on: more free-text inputs (login identifier, username) reach the database.
    env: { AUTH_USERNAME: 'optional' },
    // The sweep sends thousands of requests from one address; limits are not its subject.
    rateLimits: {
      authAccountLookup: { points: 100_000, durationSeconds: 60 },
      passcodeSend: { points: 100_000, durationSeconds: 60 },
      passcodeSendCaller: { points: 100_000, durationSeconds: 60 },
      passcodeSendAddress: { points: 100_000, durationSeconds: 60 },
      passcodeAttempt: { points: 100_000, durationSeconds: 60 },
      passwordAttempt: { points: 100_000, durationSeconds: 60 },
      passwordAttemptIdentifier: { points: 100_000, durationSeconds: 60 },
    },
  });
});
afterAll(() => t.close());

const FLOWS = new Set(['/login', '/registration', '/profile', '/token_exchange']);

/** Values no string field should store. */
const BAD_TEXT: Record<string, string> = {
  nul: 'a\u0000b',
  surrogate: 'a\ud800b',
  long: 'x'.repeat(20_000),
};
/** Values of the wrong JSON type. */
const WRONG_TYPE: Record<string, unknown> = {
  array: ['x'],
  object: { x: 1 },
  number: 42,
  null: null,
  true: true,
};
/** Raw bodies that are no object. */
const RAW_BODIES: Record<string, string> = {
  broken: '{"input_data":',
  array: '[]',
  string: '"text"',
  number: '42',
  null: 'null',
  deep: '['.repeat(5000) + ']'.repeat(5000),
};
/** Query/path values: percent-encoded, as a client would send them. */
const BAD_URL_VALUES: Record<string, string> = {
  nul: 'a%00b',
  surrogate: 'a%ED%A0%80b',
  badPercent: '%E0%A4%A',
  long: 'x'.repeat(3000),
  pattern: 'NOT_AN_ACTION',
  unknownFlow: 'register_client_capabilities%4000000000-0000-4000-8000-000000000000',
};

interface Case {
  label: string;
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
  flow: boolean;
}

interface Seen {
  label: string;
  status: number;
}
const seen: Seen[] = [];
/** Flow answers that break the protocol's shape. */
const misshapen: string[] = [];

async function send(c: Case, authorization?: string) {
  const res = await t.app.inject({
    method: c.method as 'GET',
    url: c.url,
    headers: {
      ...(c.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(authorization ? { authorization } : {}),
      ...c.headers,
    },
    ...(c.body !== undefined ? { payload: c.body } : {}),
  });
  const label = `${authorization ? 'session ' : ''}${c.label}`;
  seen.push({ label, status: res.statusCode });
  if (c.flow && res.headers['content-type']?.toString().startsWith('application/json')) {
    // The flow protocol's shape, also on refusals (HTTP status = body status).
    try {
      const body = JSON.parse(res.body);
      if (body.status !== res.statusCode) throw new Error(`body status ${body.status}`);
      await expectSchema('FlowResponse', body);
    } catch (error) {
      misshapen.push(`${res.statusCode} ${label}: ${String(error).slice(0, 300)}`);
    }
  }
  return res;
}

/** A JSON body for a schema with one property replaced. */
function bodyWith(schema: any, field: string, value: unknown) {
  const body: Record<string, unknown> = {};
  for (const [name, prop] of Object.entries<any>(schema?.properties ?? {})) {
    body[name] = prop.type === 'object' ? {} : prop.type === 'boolean' ? true : 'x';
  }
  body[field] = value;
  return JSON.stringify(body);
}

function casesFromContract(): Case[] {
  const doc = parse(readFileSync('openapi/auth.yaml', 'utf8'));
  const resolve = (node: any): any => {
    if (!node?.$ref) return node;
    return resolve(
      node.$ref
        .split('/')
        .slice(1)
        .reduce((o: any, k: string) => o[k], doc),
    );
  };
  const cases: Case[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const op = item[method];
      if (!op) continue;
      const flow = FLOWS.has(path);
      const base = `${method.toUpperCase()} ${path}`;
      const params: any[] = (op.parameters ?? []).map(resolve);
      const pathParams = params.filter((p) => p.in === 'path');
      const query = params.filter((p) => p.in === 'query');
      const fill = (name?: string, value?: string) =>
        '/auth' +
        pathParams.reduce(
          (p: string, param: any) =>
            p.replace(
              `{${param.name}}`,
              param.name === name ? value! : '00000000-0000-4000-8000-000000000000',
            ),
          path,
        );
      const add = (label: string, url: string, extra: Partial<Case> = {}) =>
        cases.push({
          label: `${base} ${label}`,
          method: method.toUpperCase(),
          url,
          flow,
          ...extra,
        });

      for (const param of pathParams) {
        for (const [kind, value] of Object.entries(BAD_URL_VALUES))
          add(`path ${param.name}=${kind}`, fill(param.name, value));
      }
      for (const param of query) {
        for (const [kind, value] of Object.entries(BAD_URL_VALUES)) {
          add(`query ${param.name}=${kind}`, `${fill()}?${param.name}=${value}`);
        }
        add(`query ${param.name} twice`, `${fill()}?${param.name}=a&${param.name}=b`);
        add(`query ${param.name} empty`, `${fill()}?${param.name}=`);
      }
      for (const param of params.filter((p) => p.in === 'header')) {
        add(`header ${param.name}=long`, fill(), { headers: { [param.name]: 'x'.repeat(5000) } });
      }
      const schema = resolve(op.requestBody?.content?.['application/json']?.schema);
      const hasBody = schema || ['post', 'put', 'patch'].includes(method);
      if (!hasBody) continue;
      // Flow calls reach the body only with an action; this one names no existing flow.
      const url = flow ? `${fill()}?action=${BAD_URL_VALUES.unknownFlow}` : fill();
      for (const [kind, raw] of Object.entries(RAW_BODIES)) add(`body ${kind}`, url, { body: raw });
      add('body as text/plain', url, { body: '{}', headers: { 'content-type': 'text/plain' } });
      for (const field of Object.keys(schema?.properties ?? {})) {
        for (const [kind, value] of Object.entries({ ...BAD_TEXT, ...WRONG_TYPE })) {
          add(`body ${field}=${kind}`, url, { body: bodyWith(schema, field, value) });
        }
      }
    }
  }
  return cases;
}

const capabilities = {
  webauthn_available: false,
  webauthn_conditional_mediation_available: false,
  webauthn_platform_authenticator_available: false,
};

/** Every declared input of every action of a flow's first real state, and the raw bodies. */
async function sweepFlowActions(
  flow: 'login' | 'registration' | 'profile',
  authorization?: string,
) {
  const headers = authorization ? { authorization } : {};
  const post = async (url: string, body: unknown) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/auth${url}`,
      headers: { 'content-type': 'application/json', ...headers },
      payload: body === undefined ? '' : JSON.stringify(body),
    });
    return JSON.parse(res.body);
  };
  const fresh = async () => {
    const first = await post(`/${flow}`, undefined);
    return post(first.actions.register_client_capabilities.href, {
      input_data: capabilities,
      csrf_token: first.csrf_token,
    });
  };
  const preflight = await post(`/${flow}`, undefined);
  if (!preflight.actions?.register_client_capabilities) throw new Error(JSON.stringify(preflight));
  const href = `/auth${preflight.actions.register_client_capabilities.href}`;
  for (const [kind, raw] of Object.entries(RAW_BODIES)) {
    await send(
      {
        label: `POST /${flow} preflight body ${kind}`,
        method: 'POST',
        url: href,
        body: raw,
        flow: true,
      },
      authorization,
    );
  }
  for (const [kind, value] of Object.entries({ ...WRONG_TYPE, string: 'x', nul: BAD_TEXT.nul })) {
    if (kind === 'null') continue; // input_data null is "no inputs"
    await send(
      {
        label: `POST /${flow} preflight input_data=${kind}`,
        method: 'POST',
        url: href,
        body: JSON.stringify({ input_data: value, csrf_token: preflight.csrf_token }),
        flow: true,
      },
      authorization,
    );
  }
  const state = await fresh();
  for (const [name, action] of Object.entries<any>(state.actions)) {
    for (const input of Object.keys(action.inputs)) {
      for (const [kind, value] of Object.entries({
        ...BAD_TEXT,
        ...WRONG_TYPE,
        nested: { x: BAD_TEXT.nul },
      })) {
        const current = await fresh();
        await send(
          {
            label: `POST /${flow} ${current.name}.${name} ${input}=${kind}`,
            method: 'POST',
            url: `/auth${current.actions[name].href}`,
            body: JSON.stringify({
              input_data: { [input]: value },
              csrf_token: current.csrf_token,
            }),
            flow: true,
          },
          authorization,
        );
      }
    }
  }
}

it(
  'answers no malformed request of any auth operation with a 5xx',
  { timeout: 300_000 },
  async () => {
    const email = uniqueEmail('sweep');
    const done = await t.register(email, 'geheim-12345');
    const authorization = `Bearer ${String(done.headers['x-auth-token'])}`;

    const cases = casesFromContract();
    for (const c of cases) {
      await send(c);
      await send(c, authorization);
    }
    for (const flow of ['login', 'registration'] as const) await sweepFlowActions(flow);
    // The sweep's /logout (and DELETE /user) ended that session: the profile flow gets another.
    const again = await t.register(uniqueEmail('sweep'), 'geheim-12345');
    await sweepFlowActions('profile', `Bearer ${String(again.headers['x-auth-token'])}`);

    const failures = seen.filter((s) => s.status >= 500);
    // The figure quoted in docs/decisions/0010-authentication-provider.md.
    console.log(
      `auth malformed-input sweep: ${seen.length} requests, ${failures.length} answered 5xx`,
    );
    for (const f of failures) console.log(`5xx: ${f.status} ${f.label}`);
    for (const m of misshapen) console.log(`shape: ${m}`);
    expect(failures.map((f) => `${f.status} ${f.label}`)).toEqual([]);
    expect(misshapen).toEqual([]);
  },
);

it('answers a malformed action, a non-JSON body and a non-object input_data with a 400 that changes nothing', async () => {
  const init = await t.begin('login');
  const href = init.actions.continue_with_login_identifier!.href;
  const flowId = decodeURIComponent(href).split('@')[1]!;
  const [before] = await t.database.db.select().from(authFlows).where(eq(authFlows.id, flowId));
  const raw = async (url: string, payload: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/auth${url}`,
      headers: { 'content-type': 'application/json' },
      payload,
    });
    const body = JSON.parse(res.body);
    await expectSchema('FlowResponse', body);
    return { status: res.statusCode, ...body };
  };
  const bare = (field: string) => ({
    status: 400,
    name: 'error',
    csrf_token: '',
    actions: {},
    error: { code: 'form_data_invalid_error', cause: `${field}: value_invalid_error` },
  });
  const body = JSON.stringify({ input_data: { identifier: 'x' }, csrf_token: init.csrf_token });
  expect(await raw(`/login?action=${'a'.repeat(300)}`, body)).toMatchObject(bare('action'));
  expect(await raw(`${href}&action=x`, body)).toMatchObject(bare('action'));
  expect(await raw(href, '{"input_data": {')).toMatchObject(bare('body'));
  expect(await raw(href, '["input_data"]')).toMatchObject(bare('body'));
  expect(
    await raw(href, JSON.stringify({ input_data: ['x'], csrf_token: init.csrf_token })),
  ).toMatchObject(bare('input_data'));
  const [after] = await t.database.db.select().from(authFlows).where(eq(authFlows.id, flowId));
  expect(after).toEqual(before);

  // Text PostgreSQL cannot store is an input error of the action: the flow goes on.
  for (const identifier of ['a\u0000b', 'a\ud800b', 'a\udc00b']) {
    const refused = await t.act(init, 'continue_with_login_identifier', { identifier });
    expect(refused).toMatchObject({
      status: 400,
      name: 'login_init',
      error: { code: 'form_data_invalid_error' },
    });
    expect(refused.actions.continue_with_login_identifier!.inputs.identifier.error.code).toBe(
      'value_invalid_error',
    );
    Object.assign(init, { csrf_token: refused.csrf_token });
  }
});
