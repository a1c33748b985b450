import createClient from 'openapi-fetch';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { waitFor } from 'xstate';
import type { paths } from '../../shared/contract/auth';
import { createAuthEvents } from '../../src/ports/auth-events';
import type { AuthFlowDeps } from '../../src/machines/auth/actors';
import { holdEarlyFlow, startFlowEarly, takeEarlyFlow } from '../../src/machines/auth/early-start';
import { postFlow } from '../../src/machines/auth/flow-request';
import {
  CAPABILITIES_OFF,
  flush,
  loginInitState,
  preflightState,
  reply,
  state,
} from './auth-widget.fixtures';

/** The provider as the widget's client sees it: preflight first, then login_init; records requests. */
function fakeDeps() {
  const requests: { path: string; action: string | null; language: string | null }[] = [];
  const fetch = async (request: Request) => {
    const url = new URL(request.url);
    requests.push({
      path: url.pathname,
      action: url.searchParams.get('action'),
      language: request.headers.get('X-Language'),
    });
    const body = requests.length === 1 ? preflightState() : loginInitState();
    return new Response(JSON.stringify(body), {
      status: 200,
      headers: { 'Content-Type': 'application/json' },
    });
  };
  const storage = new Map<string, string>();
  const deps: AuthFlowDeps = {
    authApi: createClient<paths>({ baseUrl: 'http://localhost/auth', fetch }),
    getToken: () => null,
    authEvents: createAuthEvents(),
    language: () => 'en',
    storage: {
      getItem: (k) => storage.get(k) ?? null,
      setItem: (k, v) => void storage.set(k, v),
      removeItem: (k) => void storage.delete(k),
    },
    location: { href: () => 'http://localhost/login', replace: () => {}, assign: () => {} },
    webauthn: {
      capabilities: async () => CAPABILITIES_OFF,
      get: () => new Promise(() => {}),
      create: () => new Promise(() => {}),
      cancel: () => {},
    },
  };
  return { deps, requests };
}

describe('the login flow started with the page (src/main.tsx)', () => {
  afterEach(() => {
    takeEarlyFlow('login')?.stop();
    vi.useRealTimers();
  });

  it('runs the start and the preflight before any widget, which then adopts it once', async () => {
    const { deps, requests } = fakeDeps();
    startFlowEarly(deps, 'login');
    const flow = takeEarlyFlow('login')!;
    await waitFor(flow, (s) => s.matches('login_init'));
    expect(requests).toEqual([
      { path: '/auth/login', action: null, language: 'en' },
      {
        path: '/auth/login',
        action: expect.stringMatching(/^register_client_capabilities@/),
        language: 'en',
      },
    ]);
    // A second widget (another page later) starts its own flow.
    expect(takeEarlyFlow('login')).toBeNull();
    expect(takeEarlyFlow('registration')).toBeNull();
    flow.stop();
  });

  it('takes its first answer from the request sent before its code loaded', async () => {
    const { deps, requests } = fakeDeps();
    const firstReply = postFlow(deps, '/login', undefined, undefined);
    startFlowEarly(deps, 'login', { firstReply });
    const flow = takeEarlyFlow('login')!;
    await waitFor(flow, (s) => s.matches('login_init'));
    expect(requests.map((r) => r.action?.split('@')[0] ?? 'start')).toEqual([
      'start',
      'register_client_capabilities',
    ]);
    // Continue after an error restarts the flow with a request of its own.
    flow.send({ type: 'flow.restart' });
    await waitFor(flow, () => requests.length === 3);
    expect(requests[2]).toMatchObject({ path: '/auth/login', action: null });
    flow.stop();
  });

  it('hands the app a session created before any widget showed the flow, and only then', async () => {
    const { deps } = fakeDeps();
    const seen: string[] = [];
    deps.authEvents.subscribe((event) => seen.push(event.type));
    // A passkey autofill that signed in at once: the first answer is already `success`.
    const success = reply(
      state('success', {}, { payload: { claims: { subject: 'user-1' } } as never }),
      { token: 'token-1', sessionLifetime: 3600 },
    );
    startFlowEarly(deps, 'login', { firstReply: Promise.resolve(success) });
    const flow = takeEarlyFlow('login')!;
    await waitFor(flow, (s) => s.hasTag('succeeded'));
    expect(seen).toEqual(['session-created']);
    // Once a widget shows it, its own bridge forwards (no second copy from here).
    holdEarlyFlow(flow);
    flow.send({ type: 'flow.restart' });
    await flush();
    expect(seen).toEqual(['session-created']);
    flow.stop();
  });

  it('stops a flow no widget took within a minute', async () => {
    vi.useFakeTimers();
    const { deps } = fakeDeps();
    startFlowEarly(deps, 'login');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(takeEarlyFlow('login')).toBeNull();
  });

  it('keeps running while a widget shows it, also through StrictMode’s unmount and mount, and stops after', async () => {
    vi.useFakeTimers();
    const { deps } = fakeDeps();
    startFlowEarly(deps, 'login');
    const flow = takeEarlyFlow('login')!;
    const release = holdEarlyFlow(flow);
    release();
    const again = holdEarlyFlow(flow);
    await vi.advanceTimersByTimeAsync(61_000);
    expect(flow.getSnapshot().status).toBe('active');
    again();
    await vi.advanceTimersByTimeAsync(0);
    expect(flow.getSnapshot().status).toBe('stopped');
  });
});
