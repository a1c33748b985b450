import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readContract } from '../../server/http/contract';
import type { Api } from '../support/api';
import { expectProblem, expectStatus, startApi, type Caller } from './fixtures';

// a database restart during the COMMIT of `POST /admin/client` saved the
// client and answered 503; the form's "try again" then created a second one. Every call that
// creates a record takes an Idempotency-Key: the repeat answers the first result.

/**
 * Creating calls that do not take a key, and why. Any other POST answering 201 must declare
 * the Idempotency-Key header (a new creating operation included).
 */
const WITHOUT_KEY: Record<string, string> = {
  createUser:
    'the answer holds the one-time activation code, kept only as a hash; a repeat is 409 email_taken',
  createCalendarFeed:
    'the answer holds the feed address, kept only as a hash; a repeat replaces the one feed',
  signupClient: 'public (no user to scope a key to); a repeat for a known address writes nothing',
  sendSupportMessage:
    'sends its mails itself once stored, which a remembered answer cannot take back',
  createAppointmentSummary:
    'one per appointment: a repeat is 409 and the editor opens the stored one',
  createPatientCard: 'one per appointment: a repeat is 409 and the editor opens the stored one',
};

describe('the contract', () => {
  it('declares an Idempotency-Key on every creating call', () => {
    const paths = readContract().paths as Record<
      string,
      Record<
        string,
        {
          operationId: string;
          parameters?: Array<{ $ref?: string }>;
          responses: Record<string, unknown>;
        }
      >
    >;
    const missing: string[] = [];
    for (const item of Object.values(paths)) {
      const op = item.post;
      if (!op || !op.responses['201'] || op.operationId in WITHOUT_KEY) continue;
      const keyed = (op.parameters ?? []).some(
        (p) => p.$ref === '#/components/parameters/IdempotencyKey',
      );
      if (!keyed || !op.responses['422']) missing.push(op.operationId);
    }
    expect(missing).toEqual([]);
  });
});

let api: Api;
let admin: Caller;
beforeAll(async () => {
  ({
    api,
    callers: [admin],
  } = await startApi({}, 'ADMIN'));
});
afterAll(() => api.close());

const create = (url: string, body: object, key?: string) =>
  api.call('POST', url, {
    as: admin,
    body,
    ...(key ? { headers: { 'idempotency-key': key } } : {}),
  });

describe('a creating call repeated with its Idempotency-Key', () => {
  it('creates one client and answers the repeat with the first answer', async () => {
    const lastName = `Einmal-${randomUUID().slice(0, 8)}`;
    const body = { firstName: 'Ida', lastName, email: `${lastName.toLowerCase()}@example.test` };
    const key = randomUUID();
    const first = await create('/api/admin/client', body, key);
    expectStatus(first, 201);
    const repeat = await create('/api/admin/client', body, key);
    expectStatus(repeat, 201);
    expect(repeat.body).toEqual(first.body);
    const listed = await api.call('GET', '/api/admin/client', {
      as: admin,
      query: { search: lastName },
    });
    expect(listed.body.clients.map((c: { id: string }) => c.id)).toEqual([first.body.id]);
    // The same key with another request is refused, not applied.
    expectProblem(
      await create('/api/admin/client', { ...body, firstName: 'Ilse' }, key),
      422,
      'idempotency_key_reused',
    );
  });

  it('does the same for coaches, insurers and campaigns', async () => {
    const suffix = randomUUID().slice(0, 8);
    const calls: Array<[string, object]> = [
      [
        '/api/coach',
        { firstName: 'Kai', lastName: `Coach-${suffix}`, email: `kai-${suffix}@example.test` },
      ],
      [
        '/api/admin/insurers',
        {
          name: `Kasse ${suffix}`,
          ikNumber: String(100000000 + Math.floor(Math.random() * 899999999)),
        },
      ],
      ['/api/admin/campaigns', { code: `K${suffix}`.toUpperCase(), name: `Kampagne ${suffix}` }],
    ];
    for (const [url, body] of calls) {
      const key = randomUUID();
      const first = await create(url, body, key);
      expectStatus(first, 201);
      const repeat = await create(url, body, key);
      expect(repeat.status, `${url} ${JSON.stringify(repeat.body)}`).toBe(201);
      expect(repeat.body, url).toEqual(first.body);
    }
  });
});
