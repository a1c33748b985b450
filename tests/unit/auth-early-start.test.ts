import createClient from 'openapi-fetch';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, toPromise } from 'xstate';
import type { paths } from '../../src/api/generated/auth';
import { createAuthEvents } from '../../src/app/auth-events';
import { createAuthFlowActors } from '../../src/machines/auth/actors';
import { startFlowEarly, takeEarlyFlowStart } from '../../src/machines/auth/early-start';
import { preflightState } from './auth-widget.fixtures';

/** The provider's `POST /login` as the widget's client sees it; records each request. */
function fakeProvider() {
  const requests: { url: string; language: string | null }[] = [];
  const fetch = async (request: Request) => {
    requests.push({
      url: new URL(request.url).pathname,
      language: request.headers.get('X-Language'),
    });
    return new Response(
      JSON.stringify({ ...preflightState(), csrf_token: `csrf-${requests.length}` }),
      {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      },
    );
  };
  const authApi = createClient<paths>({ baseUrl: 'http://localhost/auth', fetch });
  return { authApi, requests };
}

function startFlowActor(authApi: ReturnType<typeof fakeProvider>['authApi']) {
  const actors = createAuthFlowActors({
    authApi,
    getToken: () => null,
    authEvents: createAuthEvents(),
    takeStarted: takeEarlyFlowStart,
  });
  return toPromise(createActor(actors.startFlow, { input: { flowName: 'login' } }).start());
}

describe('the login flow started with the page (src/main.tsx, issue #4)', () => {
  afterEach(() => {
    takeEarlyFlowStart('login');
    vi.useRealTimers();
  });

  it("is the widget's first start: one POST /login, whose answer the flow machine gets", async () => {
    const provider = fakeProvider();
    startFlowEarly({ authApi: provider.authApi, language: () => 'en' }, 'login');
    expect(provider.requests).toEqual([{ url: '/auth/login', language: 'en' }]);

    const first = await startFlowActor(provider.authApi);
    expect(first.body).toMatchObject({ name: 'preflight', csrf_token: 'csrf-1' });
    expect(provider.requests).toHaveLength(1);

    // A restart (Continue after an error, a session change) asks the provider again.
    const second = await startFlowActor(provider.authApi);
    expect(second.body.csrf_token).toBe('csrf-2');
    expect(provider.requests).toHaveLength(2);
  });

  it('is not used after a minute: the widget starts its own flow', async () => {
    vi.useFakeTimers({ now: 0, toFake: ['Date'] });
    const provider = fakeProvider();
    startFlowEarly({ authApi: provider.authApi }, 'login');
    vi.setSystemTime(61_000);
    const reply = await startFlowActor(provider.authApi);
    expect(reply.body.csrf_token).toBe('csrf-2');
    expect(provider.requests).toHaveLength(2);
  });

  it('hands a failed start to the widget, which shows its error', async () => {
    const authApi = createClient<paths>({
      baseUrl: 'http://localhost/auth',
      fetch: () => Promise.reject(new TypeError('Failed to fetch')),
    });
    startFlowEarly({ authApi }, 'login');
    await expect(startFlowActor(authApi)).rejects.toThrow('Failed to fetch');
  });
});
