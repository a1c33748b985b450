import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  baseInitOptions,
  createI18n,
  detectionOptions,
  type LocaleFetch,
  type LocaleResponse,
} from '../../src/i18n';

/** A response, or a rejected fetch (what a browser does on a network error). */
type Answer = { error: Error } | { response: LocaleResponse };

/** A fake `fetch` for the translation backend: records calls (with the fake clock) and answers. */
function fakeFetch(answer: (url: string, attempt: number) => Answer) {
  const calls: { url: string; at: number }[] = [];
  // Answers asynchronously, like a real request, without moving the (fake) clock.
  const fetch: LocaleFetch = async (url) => {
    const attempt = calls.filter((c) => c.url === url).length;
    calls.push({ url, at: Date.now() });
    const result = answer(url, attempt);
    if ('error' in result) throw result.error;
    return result.response;
  };
  return { fetch, calls };
}

const status = (code: number, body = ''): Answer => ({
  response: { status: code, text: async () => body },
});
const ok = (data: object): Answer => status(200, JSON.stringify(data));

const URL_DE = '/locales/de/translation.json';

function setUp(answer: (url: string, attempt: number) => Answer) {
  const fake = fakeFetch(answer);
  const { i18n, ready } = createI18n({
    lng: 'de',
    ns: ['translation'],
    fetch: fake.fetch,
    debug: false,
  });
  return { ...fake, i18n, ready };
}

/** The delays between consecutive calls to the same URL. */
const gaps = (calls: { url: string; at: number }[], url: string) => {
  const times = calls.filter((c) => c.url === url).map((c) => c.at);
  return times.slice(1).map((t, i) => t - times[i]!);
};

describe("i18n set-up, as the specification's error catalogue and constants say", () => {
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
    const { calls, ready } = setUp(() => ({ error: new TypeError('Failed to fetch') }));
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

  it('does not retry a file that is not JSON', async () => {
    const { calls, i18n, ready } = setUp(() => status(200, '<!doctype html>'));
    await vi.advanceTimersByTimeAsync(60_000);
    await ready;
    expect(calls).toHaveLength(1);
    expect(i18n.hasResourceBundle('de', 'translation')).toBe(false);
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
    const fake = fakeFetch((url) => ok({ url }));
    const { i18n, ready } = createI18n({ lng: 'en', fetch: fake.fetch, debug: false });
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
    document.cookie = 'i18next=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT';
    window.history.replaceState(null, '', '/');
    document.documentElement.lang = 'de';
    vi.restoreAllMocks();
  });

  it('takes ?lng= first and caches the result in localStorage', async () => {
    window.history.replaceState(null, '', '/?lng=en');
    const { fetch } = fakeFetch(() => ok({ greeting: 'x' }));
    const { i18n, ready } = createI18n({ fetch, debug: false });
    await ready;
    expect(i18n.resolvedLanguage).toBe('en');
    expect(localStorage.getItem('i18nextLng')).toBe('en');
    expect(document.documentElement.lang).toBe('en');
  });

  it('takes the i18next cookie before local storage, and the browser languages after them', async () => {
    localStorage.setItem('i18nextLng', 'de');
    document.cookie = 'i18next=en; path=/';
    const first = createI18n({ fetch: fakeFetch(() => ok({ greeting: 'x' })).fetch, debug: false });
    await first.ready;
    expect(first.i18n.resolvedLanguage).toBe('en');
    document.cookie = 'i18next=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT';
    vi.restoreAllMocks();

    localStorage.clear();
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['fr-FR', 'en-GB', 'de']);
    const second = createI18n({
      fetch: fakeFetch(() => ok({ greeting: 'x' })).fetch,
      debug: false,
    });
    await second.ready;
    expect(second.i18n.resolvedLanguage).toBe('en');
  });

  it('ignores a ?lng= that is not a language tag', async () => {
    window.history.replaceState(null, '', '/?lng=../../api');
    localStorage.setItem('i18nextLng', 'en');
    const fake = fakeFetch(() => ok({ greeting: 'x' }));
    const { i18n, ready } = createI18n({ fetch: fake.fetch, debug: false });
    await ready;
    expect(i18n.resolvedLanguage).toBe('en');
    expect(fake.calls.every((c) => /^\/locales\/(de|en)\//.test(c.url))).toBe(true);
  });

  it('falls back to German when no source names a supported language', async () => {
    localStorage.setItem('i18nextLng', 'fr');
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['fr-FR', 'it']);
    vi.spyOn(navigator, 'language', 'get').mockReturnValue('fr-FR');
    document.documentElement.lang = 'fr';
    const { fetch } = fakeFetch(() => ok({ greeting: 'x' }));
    const { i18n, ready } = createI18n({ fetch, debug: false });
    await ready;
    expect(i18n.resolvedLanguage).toBe('de');
    expect(document.documentElement.lang).toBe('de');
  });
});
