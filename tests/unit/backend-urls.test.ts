import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAppServices } from '../../src/app/services';
import { backendBaseUrls } from '../../src/lib/backend-urls';
import { postFlow } from '../../src/machines/auth/flow-request';

// A web app built with VITE_API_BASE_URL / VITE_AUTH_BASE_URL and served from another origin
// calls the API and the sign-in provider there; unset, it calls its own origin as before.

afterEach(() => vi.unstubAllEnvs());

function recordingServices() {
  const requests: Request[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    requests.push(request);
    return new Response(JSON.stringify({ name: 'login_init', actions: {}, csrf_token: 'x' }), {
      status: 200,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  const services = createAppServices({ reload: () => {}, fetch });
  return { services, requests };
}

describe('backend base URLs of the build', () => {
  it('reads both settings, without a trailing slash, and nothing when unset', () => {
    expect(
      backendBaseUrls({
        VITE_API_BASE_URL: 'https://api.example.org/api/',
        VITE_AUTH_BASE_URL: ' https://login.example.org/auth ',
      }),
    ).toEqual({ api: 'https://api.example.org/api', auth: 'https://login.example.org/auth' });
    expect(backendBaseUrls({ VITE_API_BASE_URL: '' })).toEqual({ api: undefined, auth: undefined });
  });

  it('sends the API client and the sign-in widget to the configured hosts', async () => {
    vi.stubEnv('VITE_API_BASE_URL', 'https://api.example.org/api');
    vi.stubEnv('VITE_AUTH_BASE_URL', 'https://login.example.org/auth');
    const { services, requests } = recordingServices();
    await services.api.GET('/admin/client', { params: { query: { limit: 1 } } }).catch(() => null);
    await postFlow({ authApi: services.authApi }, '/login', undefined, undefined).catch(() => null);
    const urls = requests.map((r) => r.url);
    expect(urls).toContain('https://api.example.org/api/admin/client?limit=1');
    expect(urls).toContain('https://login.example.org/auth/login');
    // The provider's session cookie travels with its calls across origins.
    expect(requests.find((r) => r.url.includes('login.example.org'))?.credentials).toBe('include');
  });
});
