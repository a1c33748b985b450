import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import type { Operation } from '../../server/http/contract';
import { createTestApp, type TestApp } from '../../server/testing/test-app';
import { RATE_RULES, type RateRules } from '../../server/http/rate-limit';
import { contractOperations } from '../support/contract-validator';
import { at, SOME_ID } from './fixtures';

// Generated from the contract: every operation, every string in path, query and body, and the
// body as a whole, sent malformed (text PostgreSQL cannot store, over-long text, wrong types,
// bodies that are not JSON) as a SUPERADMIN and as an anonymous caller. No answer may be a 5xx
// (501 not_implemented marks an operation that is not built yet, not a malformed-input fault).
// The rest of each request is valid, so a malformed value reaches the handler and the
// database unless something refuses it first.

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
};

const operations = await contractOperations();

// Pseudo-random letters (deterministic): incompressible, so an index entry cannot shrink them.
function noise(length: number) {
  let x = 12345;
  let out = '';
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    out += String.fromCharCode(97 + (x % 26));
  }
  return out;
}
const LONG = noise(20_000);

/** Text values PostgreSQL cannot store, or that no column holds. */
const BAD_TEXT: Array<[string, string]> = [
  ['NUL', 'a\u0000b'],
  ['lone high surrogate', 'a\uD800b'],
  ['lone low surrogate', '\uDC00'],
  ['over-long', LONG],
];
const WRONG_TYPES: Array<[string, unknown]> = [
  ['number', 12345],
  ['huge number', 1e308],
  ['boolean', true],
  ['array', ['a']],
  ['object', { a: 1 }],
  ['null', null],
];

let emails = 0;
let ids: Record<'coach' | 'client' | 'appointment' | 'user', string>;

const CANDIDATES = [
  'abcd-efgh-jkmn',
  '09:00',
  'FREQ=WEEKLY;BYDAY=MO',
  '+49 151 1234567',
  '123456789',
  'DE',
  'https://sprechstunde.example/x',
  'initial-meetings',
  'Anna',
];

const branch = (s: Schema): Schema => {
  const options = s.anyOf ?? s.oneOf;
  if (options) return options.find((o) => o.type !== 'null') ?? options[0]!;
  if (s.allOf) return Object.assign({}, ...s.allOf) as Schema;
  return s;
};
const typeOf = (s: Schema) =>
  (Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type) ??
  (s.properties ? 'object' : 'string');

/** A value the schema accepts (as far as a test needs: formats, patterns, bounds). */
function sample(raw: Schema, name = ''): unknown {
  const s = branch(raw);
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum.find((v) => v !== null);
  switch (typeOf(s)) {
    case 'object':
      return Object.fromEntries(
        (s.required ?? []).map((key) => [key, sample(s.properties?.[key] ?? {}, key)]),
      );
    case 'array':
      return Array.from({ length: Math.max(1, s.minItems ?? 0) }, () => sample(s.items ?? {}));
    case 'integer':
    case 'number':
      return s.minimum ?? (s.maximum !== undefined ? Math.min(1, s.maximum) : 1);
    case 'boolean':
      return true;
    default:
      return sampleText(s, name);
  }
}

function sampleText(s: Schema, name: string): string {
  if (s.format === 'uuid') return idFor(name);
  // A new address each time: a sign-up with a known one stops before it writes.
  if (s.format === 'email') return `anna.probe${++emails}@example.test`;
  // An end or upper bound comes after its start.
  const later = /end|^to|until|before/i.test(name) ? 1 : 0;
  if (s.format === 'date') return at(30 + later).slice(0, 10);
  if (s.format === 'date-time') return at(30 + later);
  if (s.format === 'uri') return 'https://sprechstunde.example/x';
  if (s.pattern) {
    const re = new RegExp(s.pattern);
    const fit = CANDIDATES.map((c) => c.padEnd(s.minLength ?? 0, 'a')).find((c) => re.test(c));
    if (fit) return fit;
  }
  return 'Anna'.padEnd(s.minLength ?? 0, 'a');
}

function idFor(name: string, path = ''): string {
  const n = name.toLowerCase();
  if (n.includes('coach')) return ids.coach;
  if (n.includes('client')) return ids.client;
  if (n.includes('appointment')) return ids.appointment;
  if (n.includes('user')) return ids.user;
  if (n === 'id') {
    if (path.startsWith('/appointment/')) return ids.appointment;
    if (path.startsWith('/user/')) return ids.user;
  }
  return SOME_ID;
}

interface Probe {
  what: string;
  path: Record<string, string>;
  query: Record<string, unknown>;
  body?: unknown;
  rawBody?: string;
  contentType?: string;
}

const paramsOf = (op: Operation, where: 'path' | 'query') =>
  (op.definition.parameters ?? []).filter((p) => p.in === where);

/** A string leaf of the body, by its path of property names (arrays: their first item). */
function stringLeaves(raw: Schema, prefix: string[] = [], depth = 0): string[][] {
  const s = branch(raw);
  const type = typeOf(s);
  if (type === 'object' && depth < 3) {
    return Object.entries(s.properties ?? {}).flatMap(([key, child]) =>
      stringLeaves(child, [...prefix, key], depth + 1),
    );
  }
  if (type === 'array' && s.items && depth < 3)
    return stringLeaves(s.items, [...prefix, '0'], depth + 1);
  return type === 'string' && prefix.length ? [prefix] : [];
}

/** Objects nested `levels` deep: `{"a":{"a":…1…}}`. */
const nested = (levels: number): unknown => (levels === 0 ? 1 : { a: nested(levels - 1) });

/** Every field of the body at its top level (for wrong types). */
const topFields = (raw: Schema) => Object.keys(branch(raw).properties ?? {});

/** The valid body with `value` set at `path` (and what leads there filled in). */
function withValue(schema: Schema, base: unknown, path: string[], value: unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return value;
  const s = branch(schema);
  if (head === '0') {
    const item = s.items ?? {};
    return [withValue(item, Array.isArray(base) ? base[0] : sample(item), rest, value)];
  }
  const child = s.properties?.[head] ?? {};
  const object = (base && typeof base === 'object' ? base : {}) as Record<string, unknown>;
  return { ...object, [head]: withValue(child, object[head] ?? sample(child, head), rest, value) };
}

function probes(op: Operation): Probe[] {
  const path = Object.fromEntries(
    paramsOf(op, 'path').map((p) => [p.name, String(sampleOrId(p.schema ?? {}, p.name, op.path))]),
  );
  const query = Object.fromEntries(
    paramsOf(op, 'query')
      .filter((p) => p.required)
      .map((p) => [p.name, sample(p.schema ?? {}, p.name)]),
  );
  const bodySchema = op.schema.body as Schema | undefined;
  // A fresh valid body for each probe (new e-mail addresses: a known one stops a sign-up).
  const body = () => (bodySchema ? sample(bodySchema) : undefined);
  const base = () => ({ path, query, ...(bodySchema ? { body: body() } : {}) });
  const out: Probe[] = [{ what: 'valid', ...base() }];

  for (const p of paramsOf(op, 'path')) {
    for (const [label, value] of [...BAD_TEXT, ['dot segments', '..'] as [string, string]]) {
      out.push({ ...base(), what: `path ${p.name}: ${label}`, path: { ...path, [p.name]: value } });
    }
  }
  for (const p of paramsOf(op, 'query')) {
    const probe = (label: string, value: unknown) =>
      out.push({
        ...base(),
        what: `query ${p.name}: ${label}`,
        query: { ...query, [p.name]: value },
      });
    for (const [label, value] of BAD_TEXT) probe(label, value);
    const valid = sample(p.schema ?? {}, p.name);
    probe('repeated', [valid, valid]);
    probe('huge number', '1e308');
    probe('negative', '-99999999999');
  }
  if (bodySchema) {
    const probe = (what: string, path: string[], value: unknown) =>
      out.push({
        ...base(),
        what: `body ${what}`,
        body: withValue(bodySchema, body(), path, value),
      });
    for (const leaf of stringLeaves(bodySchema)) {
      for (const [label, value] of BAD_TEXT) probe(`${leaf.join('.')}: ${label}`, leaf, value);
    }
    for (const field of topFields(bodySchema)) {
      for (const [label, value] of WRONG_TYPES) probe(`${field}: ${label}`, [field], value);
    }
    out.push({
      ...base(),
      what: 'body key with NUL',
      body: { ...(body() as object), 'a\u0000': 'x' },
    });
    out.push({
      ...base(),
      what: 'body nested 40 levels deep',
      body: { ...(body() as object), deep: nested(40) },
    });
  }
  // Bodies the server cannot read, on every operation (also those that take none).
  for (const [label, rawBody] of [
    ['not JSON', 'not json'],
    ['truncated JSON', '{"a":'],
    ['array', '[]'],
    ['null', 'null'],
    ['string', '"x"'],
    ['number', '123'],
    ['empty', ''],
    ['JSON escape of NUL', '{"a":"\\u0000"}'],
    // Nesting far past the depth limit: it overflowed the stack of the text check.
    ['nested arrays', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
    ['nested objects', `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`],
  ] as const) {
    out.push({ ...base(), what: `raw body: ${label}`, rawBody });
  }
  out.push({ ...base(), what: 'text/plain body', rawBody: 'hallo', contentType: 'text/plain' });
  return out;
}

function sampleOrId(schema: Schema, name: string, path: string) {
  const s = branch(schema);
  return s.format === 'uuid' ? idFor(name, path) : sample(s, name);
}

function encodeQuery(query: Record<string, unknown>) {
  const part = (k: string, v: unknown) => `${encodeURIComponent(k)}=${encodeText(String(v))}`;
  return Object.entries(query)
    .flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => part(k, x)) : [part(k, v)]))
    .join('&');
}

/** encodeURIComponent, but a lone surrogate goes out as its (invalid) UTF-8 bytes. */
const encodeText = (text: string) =>
  Array.from(text)
    .map((c) => {
      const code = c.codePointAt(0)!;
      if (code < 0xd800 || code > 0xdfff) return encodeURIComponent(c);
      return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    })
    .join('');

const urlOf = (op: Operation, probe: Probe) => {
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeText(probe.path[name] ?? SOME_ID),
  );
  const query = encodeQuery({
    ...probe.query,
    ...(op.access.kind === 'webhookSecret'
      ? { secret: testApp.config.MAILCHIMP_WEBHOOK_SECRET }
      : {}),
  });
  return `/api${path}${query ? `?${query}` : ''}`;
};

let testApp: TestApp;
let superadmin: string;

beforeAll(async () => {
  const generous = Object.fromEntries(
    Object.keys(RATE_RULES).map((name) => [name, { points: 1_000_000, durationSeconds: 60 }]),
  ) as RateRules;
  testApp = await createTestApp({
    ...(process.env.DATABASE_URL ? { template: inject('templateDatabase') } : {}),
    rateLimits: generous,
  });
  superadmin = (await testApp.signIn('SUPERADMIN')).authorization;
  const target = await testApp.signIn('NONE');
  const admin = { authorization: superadmin };
  const post = async (url: string, body: unknown) => {
    const res = await testApp.app.inject({
      method: 'POST',
      url,
      headers: admin,
      payload: body as object,
    });
    if (res.statusCode !== 201) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    return res.json();
  };
  const coach = await post('/api/coach', {
    firstName: 'Carla',
    lastName: 'Coach',
    email: 'carla.sweep@coach.example',
  });
  const client = await post('/api/admin/client', {
    firstName: 'Klara',
    lastName: 'Klient',
    coachedById: coach.id,
  });
  const appointment = await post('/api/appointment', {
    clientId: client.id,
    coachId: coach.id,
    startDate: at(12, 9),
    endDate: at(12, 10),
    appointmentType: 'followup',
  });
  ids = { coach: coach.id, client: client.id, appointment: appointment.id, user: target.userId };
}, 120_000);
afterAll(() => testApp?.close());

// Deletions last, so the records the others name still exist.
const ordered = [...operations].sort(
  (a, b) => Number(a.method === 'delete') - Number(b.method === 'delete'),
);

describe('malformed-input sweep over every operation of the product contract', () => {
  it('answers no malformed request with a 5xx', async () => {
    const faults: string[] = [];
    let requests = 0;
    let notImplemented = 0;
    for (const op of ordered) {
      for (const probe of probes(op)) {
        for (const caller of ['SUPERADMIN', 'anonymous'] as const) {
          const headers: Record<string, string> = {};
          if (caller === 'SUPERADMIN') headers.authorization = superadmin;
          let payload: string | undefined;
          if (probe.rawBody !== undefined) payload = probe.rawBody;
          else if (probe.body !== undefined) payload = JSON.stringify(probe.body);
          if (payload !== undefined)
            headers['content-type'] = probe.contentType ?? 'application/json';
          const res = await testApp.app.inject({
            method: op.method.toUpperCase() as 'GET',
            url: urlOf(op, probe),
            headers,
            ...(payload === undefined ? {} : { payload }),
          });
          requests++;
          if (res.statusCode < 500) continue;
          if (res.statusCode === 501 && res.json().code === 'not_implemented') {
            notImplemented++;
            continue;
          }
          faults.push(
            `${res.statusCode} ${caller} ${op.operationId} ${probe.what}: ${res.body.slice(0, 120)}`,
          );
        }
      }
    }
    console.log(
      `malformed-input sweep: ${operations.length} operations, ${requests} requests, ` +
        `${faults.length} answered 5xx (besides ${notImplemented} × 501 not_implemented)`,
    );
    if (faults.length) console.log(faults.slice(0, 200).join('\n'));
    expect(faults).toEqual([]);
  }, 600_000);
});

describe('deeply nested JSON', () => {
  const createClient = (payload: string) =>
    testApp.app.inject({
      method: 'POST',
      url: '/api/admin/client',
      headers: { authorization: superadmin, 'content-type': 'application/json' },
      payload,
    });

  it('is a 400 naming the field once it nests deeper than 32 levels', async () => {
    const far = await createClient(`${'['.repeat(200_000)}${']'.repeat(200_000)}`);
    expect(far.statusCode, far.body).toBe(400);
    expect(far.json().errors[0]).toMatchObject({ field: '(root)', code: 'value_too_deep' });
    const res = await createClient(
      JSON.stringify({ firstName: 'Tief', lastName: 'Verschachtelt', notes: nested(40) }),
    );
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors).toEqual([
      {
        field: 'notes',
        code: 'value_too_deep',
        message: 'nests objects and arrays deeper than 32 levels',
      },
    ]);
  });

  it('up to 32 levels is left to the contract (here: a field of the wrong type, not too deep)', async () => {
    const res = await createClient(
      JSON.stringify({ firstName: 'Flach', lastName: 'Genug', notes: nested(31) }),
    );
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors.map((e: { code: string }) => e.code)).not.toContain('value_too_deep');
  });
});
