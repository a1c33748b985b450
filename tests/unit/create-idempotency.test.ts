import { describe, expect, it } from 'vitest';
import { createActor, toPromise } from 'xstate';
import { z } from 'zod';
import { createApiClient } from '../../src/api/client';
import { ApiError } from '../../src/api/errors';
import { saveClientActor } from '../../src/machines/actors/staff/clients';
import { recordFormMachine, type SaveRequest } from '../../src/machines/record-form.machine';
import { flush, startMachine, type Fake } from '../support/model';

// "Erneut versuchen" after a 503 must not create a second client. Every
// create from a staff form sends an Idempotency-Key that stays the same across its retries.

const schema = z.object({
  firstName: z.string().trim().min(1),
  lastName: z.string().trim().min(1),
});
const UNAVAILABLE = new ApiError({ status: 503, code: 'service_unavailable', fieldErrors: [] });

function startForm(id: string | null = null) {
  const started = startMachine(recordFormMachine, {
    input: { id, schema, values: { firstName: 'Ida', lastName: 'Einmal' } },
    actions: { notifySaved: () => undefined },
  });
  return { ...started, save: started.fakes.saveRecord as Fake<SaveRequest, unknown> };
}

describe('the record form’s Idempotency-Key', () => {
  it('stays the same when a failed create is tried again, by retry or by saving again', async () => {
    const { actor, save } = startForm();
    actor.send({ type: 'form.submit' });
    await flush();
    save.latest().reject(UNAVAILABLE);
    await flush();
    actor.send({ type: 'form.retry' });
    await flush();
    save.latest().reject(UNAVAILABLE);
    await flush();
    actor.send({ type: 'form.edit' });
    actor.send({ type: 'form.submit' });
    await flush();
    const keys = save.calls.map((c) => c.idempotencyKey);
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys).size).toBe(1);
  });

  it('is new once the body differs, and for each new form', async () => {
    const { actor, save } = startForm();
    actor.send({ type: 'form.submit' });
    await flush();
    save.latest().reject(UNAVAILABLE);
    await flush();
    actor.send({ type: 'form.edit' });
    actor.send({ type: 'form.change', field: 'firstName', value: 'Ilse' });
    actor.send({ type: 'form.submit' });
    await flush();
    const [first, second] = save.calls;
    expect(second!.idempotencyKey).toBeDefined();
    expect(second!.idempotencyKey).not.toBe(first!.idempotencyKey);
    // Another form (another person, another new client) has its own key.
    const other = startForm();
    other.actor.send({ type: 'form.submit' });
    await flush();
    expect(other.save.latest().input.idempotencyKey).not.toBe(first!.idempotencyKey);
  });
});

describe('POST /admin/client from the client form', () => {
  it('sends the form’s key as the Idempotency-Key header, the same on every try', async () => {
    const seen: Array<string | null> = [];
    const api = createApiClient({
      getToken: () => 'token',
      baseUrl: 'http://localhost/api',
      fetch: async (request: Request | string | URL) => {
        seen.push((request as Request).headers.get('idempotency-key'));
        return seen.length === 1
          ? new Response(JSON.stringify({ status: 503, code: 'service_unavailable' }), {
              status: 503,
              headers: { 'content-type': 'application/problem+json' },
            })
          : new Response(JSON.stringify({ id: 'c1' }), {
              status: 201,
              headers: { 'content-type': 'application/json' },
            });
      },
    });
    const input: SaveRequest = {
      id: null,
      body: { firstName: 'Ida', lastName: 'Einmal' },
      idempotencyKey: 'key-0123456789',
    };
    const run = () => toPromise(createActor(saveClientActor(api), { input }).start());
    await expect(run()).rejects.toMatchObject({ status: 503 });
    await expect(run()).resolves.toEqual({ id: 'c1' });
    expect(seen).toEqual(['key-0123456789', 'key-0123456789']);
  });
});
