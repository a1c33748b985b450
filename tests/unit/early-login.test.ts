import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { takeEarlyLogin } from '../../src/early-login-handoff';
import { loginInitState, preflightState } from './auth-widget.fixtures';

/**
 * src/early-login.ts, the sign-in page's own small script: it starts the login flow
 * and answers the preflight before the app's code ran, and hands the answer to the start script.
 */
describe('the early sign-in script', () => {
  let requests: Array<{ url: URL; body: unknown }>;
  const preflight = preflightState();

  beforeEach(() => {
    vi.resetModules();
    requests = [];
    // Node's Request takes no relative URL; the page's does (against its own address).
    const NodeRequest = globalThis.Request;
    vi.stubGlobal(
      'Request',
      class extends NodeRequest {
        constructor(input: RequestInfo | URL, init?: RequestInit) {
          super(typeof input === 'string' ? new URL(input, window.location.href) : input, init);
        }
      },
    );
    vi.stubGlobal('fetch', async (request: Request) => {
      const text = await request.text();
      requests.push({ url: new URL(request.url), body: text ? JSON.parse(text) : undefined });
      const body = requests.length === 1 ? preflight : loginInitState();
      return new Response(JSON.stringify(body), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      });
    });
    takeEarlyLogin(); // a previous test's hand-over
    (globalThis as Record<symbol, unknown>)[Symbol.for('sprechstunde.earlyLogin')] = undefined;
  });

  afterEach(() => {
    vi.unstubAllGlobals();
    document.cookie = 'hanko=; Path=/; Max-Age=0';
    window.history.replaceState(null, '', '/');
  });

  const run = async (path: string) => {
    window.history.replaceState(null, '', path);
    await import('../../src/early-login');
    return takeEarlyLogin();
  };

  it('on /login, hands over the login form: flow started and preflight answered', async () => {
    const reply = await run('/login');
    expect(reply).not.toBeNull();
    expect((await reply!).body.name).toBe('login_init');
    const preflightHref = preflight.actions.register_client_capabilities!.href;
    expect(requests.map((r) => `${r.url.pathname}${r.url.search}`)).toEqual([
      '/auth/login',
      `/auth${preflightHref}`,
    ]);
    // jsdom has no WebAuthn: nothing is reported available, so passcodes remain.
    expect(requests[1]!.body).toMatchObject({
      input_data: {
        webauthn_available: false,
        webauthn_conditional_mediation_available: false,
        webauthn_platform_authenticator_available: false,
      },
      csrf_token: preflight.csrf_token,
    });
    // Once: the widget's own start sends its own request.
    expect(takeEarlyLogin()).toBeNull();
  });

  it('starts nothing on other pages, with a session, or on a return from a provider', async () => {
    expect(await run('/clients')).toBeNull();
    vi.resetModules();
    document.cookie = 'hanko=token-1; Path=/';
    expect(await run('/login')).toBeNull();
    document.cookie = 'hanko=; Path=/; Max-Age=0';
    vi.resetModules();
    expect(await run('/login?hanko_token=abc')).toBeNull();
    expect(requests).toEqual([]);
  });

  it('starts nothing once the start script ran without it (its widget starts its own flow)', async () => {
    expect(takeEarlyLogin()).toBeNull();
    window.history.replaceState(null, '', '/login');
    await import('../../src/early-login');
    expect(requests).toEqual([]);
  });
});
