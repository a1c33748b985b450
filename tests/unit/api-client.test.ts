import { describe, expect, it, vi } from 'vitest';
import { createApiClient } from '../../src/api/client';
import { ApiError, NetworkError, parseProblem } from '../../src/api/errors';
import { createAppServices } from '../../src/app/services';

/** A tiny contract in the shape openapi-typescript generates, so the tests do not depend on openapi/. */
interface TestPaths {
  '/clients/{clientId}': {
    parameters: { query?: never; header?: never; path: { clientId: string }; cookie?: never };
    get: {
      parameters: { query?: never; header?: never; path: { clientId: string }; cookie?: never };
      requestBody?: never;
      responses: {
        200: {
          headers: { [name: string]: unknown };
          content: { 'application/json': { id: string } };
        };
        default: {
          headers: { [name: string]: unknown };
          content: { 'application/problem+json': { code: string } };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}

const BASE = 'http://app.test/api';

const json = (status: number, body: unknown, type = 'application/json') =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': type } });

function setUp(answer: (request: Request) => Response | Promise<Response>, token?: string | null) {
  const requests: Request[] = [];
  const fetch = vi.fn(async (input: Request) => {
    requests.push(input);
    return answer(input);
  });
  const onNetworkError = vi.fn();
  const client = createApiClient<TestPaths>({
    baseUrl: BASE,
    fetch: fetch as unknown as typeof globalThis.fetch,
    getToken: () => token,
    onNetworkError,
  });
  const getClient = () =>
    client.GET('/clients/{clientId}', { params: { path: { clientId: 'c-1' } } });
  return { client, requests, onNetworkError, getClient };
}

describe('API client: bearer middleware', () => {
  it('sends the token from getToken() as a bearer token', async () => {
    const { requests, getClient } = setUp(() => json(200, { id: 'c-1' }), 'token-123');
    const { data } = await getClient();
    expect(data).toEqual({ id: 'c-1' });
    expect(requests[0]!.url).toBe(`${BASE}/clients/c-1`);
    expect(requests[0]!.headers.get('Authorization')).toBe('Bearer token-123');
  });

  it('sends no Authorization header without a token', async () => {
    const { requests, getClient } = setUp(() => json(200, { id: 'c-1' }), null);
    await getClient();
    expect(requests[0]!.headers.has('Authorization')).toBe(false);
  });

  it('asks for the token on every request (it may have been refreshed)', async () => {
    let token = 'first';
    const requests: Request[] = [];
    const client = createApiClient<TestPaths>({
      baseUrl: BASE,
      fetch: (async (r: Request) => (
        requests.push(r),
        json(200, { id: 'x' })
      )) as typeof globalThis.fetch,
      getToken: async () => token,
    });
    await client.GET('/clients/{clientId}', { params: { path: { clientId: 'a' } } });
    token = 'second';
    await client.GET('/clients/{clientId}', { params: { path: { clientId: 'a' } } });
    expect(requests.map((r) => r.headers.get('Authorization'))).toEqual([
      'Bearer first',
      'Bearer second',
    ]);
  });
});

describe('API client: error middleware', () => {
  it('turns a problem+json answer into an ApiError with code, title, detail and field errors', async () => {
    const { getClient, onNetworkError } = setUp(() =>
      json(
        400,
        {
          type: 'https://sprechstunde.example/problems/validation',
          title: 'Bad Request',
          status: 400,
          detail: 'email is invalid',
          code: 'validation_failed',
          requestId: 'req-42',
          errors: [
            { field: 'body.email', code: 'format', message: 'must be an e-mail address' },
            { bogus: 1 },
          ],
        },
        'application/problem+json',
      ),
    );
    const error = await getClient().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError).toMatchObject({
      name: 'ApiError',
      status: 400,
      code: 'validation_failed',
      title: 'Bad Request',
      detail: 'email is invalid',
      type: 'https://sprechstunde.example/problems/validation',
      requestId: 'req-42',
      fieldErrors: [{ field: 'body.email', code: 'format', message: 'must be an e-mail address' }],
      request: { method: 'GET', url: `${BASE}/clients/c-1` },
    });
    expect(apiError.errorsFor('email')).toHaveLength(1);
    expect(apiError.errorsFor('mail')).toHaveLength(0);
    expect(onNetworkError).not.toHaveBeenCalled();
  });

  it.each([
    [401, 'unauthorized'],
    [403, 'forbidden'],
    [404, 'not_found'],
    [409, 'conflict'],
    [500, 'internal_error'],
  ])('rejects on %i with the code of the body', async (status, code) => {
    const { getClient } = setUp(() =>
      json(status, { title: 'x', code }, 'application/problem+json'),
    );
    await expect(getClient()).rejects.toMatchObject({ status, code });
  });

  it('gives a non-JSON error answer the code http_<status>', async () => {
    const { getClient } = setUp(
      () =>
        new Response('<h1>Bad Gateway</h1>', {
          status: 502,
          headers: { 'Content-Type': 'text/html' },
        }),
    );
    const error = (await getClient().catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 502, code: 'http_502', fieldErrors: [] });
  });

  it('turns a failed fetch into a NetworkError and reports it', async () => {
    const { getClient, onNetworkError } = setUp(() => {
      throw new TypeError('Failed to fetch');
    });
    const error = await getClient().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).code).toBe('network_error');
    expect((error as NetworkError).cause).toBeInstanceOf(TypeError);
    expect(onNetworkError).toHaveBeenCalledTimes(1);
    expect(onNetworkError).toHaveBeenCalledWith(error);
  });

  it('lets an abort through unchanged and does not report it', async () => {
    const abort = new DOMException('The operation was aborted.', 'AbortError');
    const { getClient, onNetworkError } = setUp(() => {
      throw abort;
    });
    await expect(getClient()).rejects.toBe(abort);
    expect(onNetworkError).not.toHaveBeenCalled();
  });

  it('resolves 2xx answers, including 204 without a body', async () => {
    const { getClient } = setUp(() => new Response(null, { status: 204 }));
    const { data, response } = await getClient();
    expect(data).toBeUndefined();
    expect(response.status).toBe(204);
  });
});

describe('parseProblem', () => {
  it('reads RFC 9457 invalid-params and JSON-pointer field errors', () => {
    expect(
      parseProblem(422, {
        'invalid-params': [{ name: 'age', reason: 'must be a positive integer' }],
      }),
    ).toEqual({
      status: 422,
      code: 'http_422',
      fieldErrors: [{ field: 'age', code: 'invalid', message: 'must be a positive integer' }],
    });
    expect(
      parseProblem(400, { fieldErrors: [{ pointer: '/body/email', code: 'required' }] })
        .fieldErrors,
    ).toEqual([{ field: '/body/email', code: 'required' }]);
  });

  it('keeps the id and status a refused batch names for each record', () => {
    const id = '11111111-1111-4111-8111-111111111111';
    expect(
      parseProblem(409, {
        code: 'batch_refused',
        errors: [
          { field: 'ids.0', code: 'invalid_transition', message: 'x', id, status: 'approved' },
        ],
      }).fieldErrors,
    ).toEqual([
      { field: 'ids.0', code: 'invalid_transition', message: 'x', id, status: 'approved' },
    ]);
  });

  it('tolerates bodies that are no objects', () => {
    expect(parseProblem(500, 'oops')).toEqual({ status: 500, code: 'http_500', fieldErrors: [] });
  });
});

describe('app services', () => {
  it('shows the network banner when a call fails without an answer, and reloads on retry', async () => {
    const reload = vi.fn();
    const services = createAppServices({
      reload,
      apiBaseUrl: BASE,
      fetch: (async () => {
        throw new TypeError('Failed to fetch');
      }) as typeof globalThis.fetch,
    });
    expect(services.networkBanner.getSnapshot().context.visible).toBe(false);
    // The app client is typed for the real contract; any path reaches the same middleware.
    await expect(
      (services.api as unknown as ReturnType<typeof createApiClient<TestPaths>>).GET(
        '/clients/{clientId}',
        {
          params: { path: { clientId: 'x' } },
        },
      ),
    ).rejects.toBeInstanceOf(NetworkError);
    expect(services.networkBanner.getSnapshot().context.visible).toBe(true);
    services.networkBanner.send({ type: 'retry' });
    expect(reload).toHaveBeenCalledTimes(1);
  });
});

describe('API client: identical reads within 2 s share one answer', () => {
  function counting(answer: () => Response | Promise<Response> = () => json(200, { id: 'c-1' })) {
    let clock = 0;
    const requests: Request[] = [];
    const fetch = vi.fn(async (input: Request) => {
      requests.push(input);
      return answer();
    });
    const client = createApiClient<TestPaths>({
      baseUrl: BASE,
      fetch: fetch as unknown as typeof globalThis.fetch,
      getToken: () => 'token-1',
      now: () => clock,
    });
    const get = (init: { signal?: AbortSignal; cache?: RequestCache } = {}) =>
      client.GET('/clients/{clientId}', { params: { path: { clientId: 'c-1' } }, ...init });
    return { client, requests, get, tick: (ms: number) => (clock += ms) };
  }

  it('sends one request for identical GETs at once and within 2 s, each caller reading its own body', async () => {
    const { requests, get, tick } = counting();
    const [a, b] = await Promise.all([get(), get()]);
    tick(1_999);
    const c = await get();
    expect(requests).toHaveLength(1);
    for (const r of [a, b, c]) expect(r.data).toEqual({ id: 'c-1' });
    tick(1);
    await get();
    expect(requests).toHaveLength(2);
  });

  it('asks again for another query, after a change, after a failure, and when told not to share', async () => {
    let status = 500;
    const { client, requests, get } = counting(() => json(status, { code: 'boom' }));
    await expect(get()).rejects.toBeInstanceOf(ApiError);
    status = 200;
    await get();
    expect(requests).toHaveLength(2);
    await client.GET('/clients/{clientId}', { params: { path: { clientId: 'c-2' } } });
    expect(requests).toHaveLength(3);
    await get();
    expect(requests).toHaveLength(3);
    await client
      .PUT('/clients/{clientId}' as never, { params: { path: { clientId: 'c-1' } } } as never)
      .catch(() => {});
    await get();
    expect(requests.map((r) => r.method)).toEqual(['GET', 'GET', 'GET', 'PUT', 'GET']);
    await get({ cache: 'no-store' });
    expect(requests).toHaveLength(6);
  });

  it('lets one caller abort without stopping the shared request for the others', async () => {
    let release: (r: Response) => void = () => {};
    const { requests, get } = counting(
      () => new Promise<Response>((resolve) => (release = resolve)),
    );
    const stop = new AbortController();
    const first = get({ signal: stop.signal });
    const second = get();
    stop.abort();
    await expect(first).rejects.toMatchObject({ name: 'AbortError' });
    release(json(200, { id: 'c-1' }));
    expect((await second).data).toEqual({ id: 'c-1' });
    expect(requests).toHaveLength(1);
  });

  it('does not share between callers with different tokens', async () => {
    const requests: Request[] = [];
    let token = 'a';
    const client = createApiClient<TestPaths>({
      baseUrl: BASE,
      fetch: (async (input: Request) => {
        requests.push(input);
        return json(200, { id: 'c-1' });
      }) as unknown as typeof globalThis.fetch,
      getToken: () => token,
    });
    const get = () => client.GET('/clients/{clientId}', { params: { path: { clientId: 'c-1' } } });
    await get();
    token = 'b';
    await get();
    expect(requests.map((r) => r.headers.get('authorization'))).toEqual(['Bearer a', 'Bearer b']);
  });
});
