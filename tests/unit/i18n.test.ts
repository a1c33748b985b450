import type { HttpBackendOptions, RequestResponse } from 'i18next-http-backend';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { baseInitOptions, createI18n, detectionOptions } from '../../src/i18n';

type Request = NonNullable<HttpBackendOptions['request']>;
type Answer = { error: unknown; response: RequestResponse | null };

/** A fake for i18next-http-backend's request: records calls (with the fake clock) and answers. */
function fakeRequest(answer: (url: string, attempt: number) => Answer) {
  const calls: { url: string; at: number }[] = [];
  const request: Request = (_options, url, _payload, callback) => {
    const attempt = calls.filter((c) => c.url === url).length;
    calls.push({ url, at: Date.now() });
    const { error, response } = answer(url, attempt);
    // Answer asynchronously, like a real request, without moving the (fake) clock.
    queueMicrotask(() => callback(error, response));
  };
  return { request, calls };
}

const status = (code: number): Answer => ({
  error: `HTTP ${code}`,
  response: { status: code, data: '' },
});
const ok = (data: object): Answer => ({
  error: null,
  response: { status: 200, data: JSON.stringify(data) },
});

const URL_DE = '/locales/de/translation.json';

function setUp(answer: (url: string, attempt: number) => Answer) {
  const fake = fakeRequest(answer);
  const { i18n, ready } = createI18n({
    lng: 'de',
    ns: ['translation'],
    request: fake.request,
    debug: false,
  });
  return { ...fake, i18n, ready };
}

/** The delays between consecutive calls to the same URL. */
const gaps = (calls: { url: string; at: number }[], url: string) => {
  const times = calls.filter((c) => c.url === url).map((c) => c.at);
  return times.slice(1).map((t, i) => t - times[i]!);
};

describe('i18n set-up (specification sections 8 and 9)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('retries a 5xx answer 5 times, 350 ms first and doubling, then gives up', async () => {
    const { calls, i18n, ready } = setUp(() => status(503));
    await vi.advanceTimersByTimeAsync(349);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(60_000);
    await ready;

    expect(calls.map((c) => c.url)).toEqual(Array(6).fill(URL_DE));
    expect(gaps(calls, URL_DE)).toEqual([350, 700, 1400, 2800, 5600]);
    expect(i18n.hasResourceBundle('de', 'translation')).toBe(false);
  });

  it('retries a network error (no status) the same way', async () => {
    const { calls, ready } = setUp(() => ({
      error: new TypeError('Failed to fetch'),
      response: null,
    }));
    await vi.advanceTimersByTimeAsync(60_000);
    await ready;
    expect(gaps(calls, URL_DE)).toEqual([350, 700, 1400, 2800, 5600]);
  });

  it('does not retry a 4xx answer', async () => {
    const { calls, ready } = setUp(() => status(404));
    await vi.advanceTimersByTimeAsync(60_000);
    await ready;
    expect(calls).toHaveLength(1);
  });

  it('loads the bundle when a retry succeeds', async () => {
    const { calls, i18n, ready } = setUp((_url, attempt) =>
      attempt < 2 ? status(500) : ok({ home: { title: 'Willkommen' } }),
    );
    await vi.advanceTimersByTimeAsync(60_000);
    await ready;
    expect(gaps(calls, URL_DE)).toEqual([350, 700]);
    expect(i18n.t('home.title')).toBe('Willkommen');
  });

  it('loads from /locales/{lng}/{ns}.json with fallback de', async () => {
    const fake = fakeRequest((url) => ok({ url }));
    const { i18n, ready } = createI18n({ lng: 'en', request: fake.request, debug: false });
    await vi.advanceTimersByTimeAsync(1_000);
    await ready;
    expect(fake.calls.map((c) => c.url).sort()).toEqual([
      '/locales/de/common.json',
      '/locales/de/translation.json',
      '/locales/en/common.json',
      '/locales/en/translation.json',
    ]);
    expect(i18n.options.fallbackLng).toEqual(['de']);
  });

  it('has the constants of the specification', () => {
    expect(baseInitOptions).toMatchObject({
      fallbackLng: 'de',
      defaultNS: 'translation',
      interpolation: { escapeValue: false },
      maxParallelReads: 10,
      maxRetries: 5,
      retryTimeout: 350,
      saveMissing: false,
    });
    expect(detectionOptions).toEqual({
      order: ['querystring', 'cookie', 'localStorage', 'sessionStorage', 'navigator', 'htmlTag'],
      lookupQuerystring: 'lng',
      lookupCookie: 'i18next',
      lookupLocalStorage: 'i18nextLng',
      lookupSessionStorage: 'i18nextLng',
      caches: ['localStorage'],
    });
  });
});

describe('language detection', () => {
  afterEach(() => {
    localStorage.clear();
    window.history.replaceState(null, '', '/');
    document.documentElement.lang = 'de';
    vi.restoreAllMocks();
  });

  it('takes ?lng= first and caches the result in localStorage', async () => {
    window.history.replaceState(null, '', '/?lng=en');
    const { request } = fakeRequest(() => ok({ greeting: 'x' }));
    const { i18n, ready } = createI18n({ request, debug: false });
    await ready;
    expect(i18n.resolvedLanguage).toBe('en');
    expect(localStorage.getItem('i18nextLng')).toBe('en');
    expect(document.documentElement.lang).toBe('en');
  });

  it('falls back to German when no source names a supported language', async () => {
    localStorage.setItem('i18nextLng', 'fr');
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['fr-FR', 'it']);
    vi.spyOn(navigator, 'language', 'get').mockReturnValue('fr-FR');
    document.documentElement.lang = 'fr';
    const { request } = fakeRequest(() => ok({ greeting: 'x' }));
    const { i18n, ready } = createI18n({ request, debug: false });
    await ready;
    expect(i18n.resolvedLanguage).toBe('de');
    expect(document.documentElement.lang).toBe('de');
  });
});
