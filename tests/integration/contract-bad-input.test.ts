import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Operation } from '../../server/http/contract';
import { createApi, type Api, type CallOptions } from '../support/api';
import { SOME_ID } from './fixtures';
import { contractOperations } from '../support/contract-validator';

// Generated from the contract: every operation refuses bad input with 400 problem+json that
// names the field, before any handler runs (so also where the area has not landed yet).
const operations = await contractOperations();

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: unknown;
  maxLength?: number;
  format?: string;
};

let api: Api;
let superadmin: { authorization: string };

beforeAll(async () => {
  api = await createApi();
  superadmin = await api.signIn('SUPERADMIN');
});
afterAll(() => api.close());

function access(op: Operation): CallOptions {
  if (op.access.kind === 'public') return {};
  if (op.access.kind === 'webhookSecret') {
    return { query: { secret: api.config.MAILCHIMP_WEBHOOK_SECRET! } };
  }
  return { as: superadmin };
}

/** A path with a valid value for every parameter, except those given. */
function urlOf(op: Operation, params: Record<string, string> = {}) {
  const schemas = (op.schema.params as Schema | undefined)?.properties ?? {};
  return `/api${op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const schema = schemas[name] as (Schema & { enum?: string[]; pattern?: string }) | undefined;
    const fits = (v: string) => !schema?.pattern || new RegExp(schema.pattern).test(v);
    return params[name] ?? schema?.enum?.[0] ?? [SOME_ID, 'abcd-efgh-jkmn'].find(fits) ?? SOME_ID;
  })}`;
}

const bodySchema = (op: Operation) => op.schema.body as Schema | undefined;
const typesOf = (s: Schema) => (Array.isArray(s.type) ? s.type : [s.type]);

async function expectFieldError(
  op: Operation,
  options: CallOptions,
  field: string,
  url = urlOf(op),
) {
  const base = access(op);
  const res = await api.call(op.method, url, {
    ...base,
    ...options,
    query: { ...base.query, ...options.query },
  });
  expect(res.status, `${op.operationId}: ${JSON.stringify(res.body)}`).toBe(400);
  expect(res.headers['content-type']).toContain('application/problem+json');
  const fields = (res.body.errors ?? []).map((e: { field: string }) => e.field);
  expect(fields, op.operationId).toContain(field);
}

const withBody = operations.filter((op) => bodySchema(op)?.type === 'object');
const strictBodies = withBody.filter((op) => bodySchema(op)?.additionalProperties === false);
// Fastify validates the body before the query, so unknown query parameters are probed on
// operations without a body.
const withQuery = operations.filter((op) => op.schema.querystring && !op.schema.body);
const withPaging = operations.filter((op) =>
  op.definition.parameters?.some((p) => p.name === 'page'),
);
const withUuidPath = operations.filter((op) =>
  Object.values((op.schema.params as Schema | undefined)?.properties ?? {}).some(
    (p) => p.format === 'uuid',
  ),
);

const named = (ops: Operation[]) => ops.map((op) => [op.operationId, op] as const);

describe('bad input, for every operation of the contract', () => {
  it.each(named(withBody))('%s: malformed JSON', async (_n, op) => {
    await expectFieldError(op, { rawBody: '{"firstName": "Anna",' }, 'body');
  });

  it.each(named(strictBodies))('%s: unknown body field', async (_n, op) => {
    await expectFieldError(op, { body: { zzUnknown: 1 } }, 'zzUnknown');
  });

  it.each(named(withBody.filter((op) => (bodySchema(op)?.required ?? []).length > 0)))(
    '%s: missing required fields',
    async (_n, op) => {
      await expectFieldError(op, { body: {} }, bodySchema(op)!.required![0]!);
    },
  );

  const stringField = (op: Operation) =>
    Object.entries(bodySchema(op)?.properties ?? {}).find(
      ([, s]) => typesOf(s).includes('string') && !typesOf(s).includes('number'),
    );
  it.each(named(withBody.filter((op) => stringField(op))))('%s: wrong type', async (_n, op) => {
    const [field] = stringField(op)!;
    await expectFieldError(op, { body: { [field]: 12345 } }, field);
  });

  const longField = (op: Operation) =>
    Object.entries(bodySchema(op)?.properties ?? {}).find(
      ([, s]) => typesOf(s).includes('string') && s.maxLength && !s.format,
    );
  it.each(named(withBody.filter((op) => longField(op))))('%s: over-long string', async (_n, op) => {
    const [field, schema] = longField(op)!;
    await expectFieldError(op, { body: { [field]: 'x'.repeat(schema.maxLength! + 1) } }, field);
  });

  // NUL and lone surrogates: JSON and URLs carry them, PostgreSQL cannot store them. The
  // field is named whatever else the request lacks (public operations are called anonymously).
  const UNSTORABLE = [
    ['NUL', 'Anna\u0000'],
    ['lone surrogate', 'Anna\uD83D'],
  ] as const;
  it.each(named(withBody.filter((op) => stringField(op))))(
    '%s: text that cannot be stored, in the body',
    async (_n, op) => {
      const [field] = stringField(op)!;
      for (const [, text] of UNSTORABLE) {
        await expectFieldError(op, { body: { [field]: text } }, field);
      }
    },
  );

  const stringQuery = (op: Operation) =>
    Object.entries((op.schema.querystring as Schema | undefined)?.properties ?? {}).find(
      ([, s]) => typesOf(s).includes('string') && !s.format,
    );
  it.each(named(withQuery.filter((op) => stringQuery(op))))(
    '%s: text that cannot be stored, in the query',
    async (_n, op) => {
      const [name] = stringQuery(op)!;
      await expectFieldError(op, { query: { [name]: 'Anna\u0000' } }, name);
    },
  );

  it.each(named(withQuery))('%s: unknown query parameter', async (_n, op) => {
    await expectFieldError(op, { query: { zzUnknown: '1' } }, 'zzUnknown');
  });

  it.each(named(withPaging))('%s: out-of-range paging', async (_n, op) => {
    await expectFieldError(op, { query: { page: 0 } }, 'page');
    const size = op.definition.parameters?.some((p) => p.name === 'pageSize')
      ? 'pageSize'
      : 'limit';
    await expectFieldError(op, { query: { [size]: 1000 } }, size);
    await expectFieldError(op, { query: { [size]: 'abc' } }, size);
  });

  it.each(named(withUuidPath))('%s: malformed id in the path', async (_n, op) => {
    const [name] = Object.entries((op.schema.params as Schema).properties!).find(
      ([, s]) => s.format === 'uuid',
    )!;
    await expectFieldError(op, {}, name, urlOf(op, { [name]: 'not-a-uuid' }));
  });
});
