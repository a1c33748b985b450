import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROUTE_HINTS_FILE } from '../../shared/route-match';
import { useBrowser } from '../support/browser';

const b = useBrowser();

describe('home page', () => {
  it('renders in German at /', async () => {
    const response = await b.page.goto('/');
    expect(response?.status()).toBe(200);

    const heading = b.page.getByRole('heading', { level: 1 });
    await heading.waitFor();
    expect(await heading.textContent()).toBe('Willkommen bei Sprechstunde');
    expect(await b.page.locator('html').getAttribute('lang')).toBe('de');
    expect(
      await b.page.getByRole('main').getByRole('link', { name: 'Anmelden' }).getAttribute('href'),
    ).toBe('/login');
    expect(
      await b.page.getByRole('link', { name: 'Als Klient:in registrieren' }).getAttribute('href'),
    ).toBe('/client-signup');
    expect(b.pageErrors).toEqual([]);
  });

  it('loads a deep client route on refresh (history fallback)', async () => {
    const response = await b.page.goto('/clients');
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-type']).toContain('text/html');
    // The app booted on that path: its shell rendered, and the URL was kept.
    await b.page.locator('#root main').waitFor();
    // Pages load lazily: wait for the page's heading before counting.
    await b.page.getByRole('heading', { level: 1 }).first().waitFor();
    expect(await b.page.getByRole('heading', { level: 1 }).count()).toBe(1);
    expect(new URL(b.page.url()).pathname).not.toBe('/');

    await b.page.reload();
    await b.page.locator('#root main').waitFor();
    expect(await b.page.locator('html').getAttribute('lang')).toBe('de');
    expect(b.pageErrors).toEqual([]);
  });

  it('switches to English with ?lng=en and back to German with ?lng=de', async () => {
    await b.page.goto('/?lng=en');
    const heading = b.page.getByRole('heading', { level: 1 });
    await heading.waitFor();
    expect(await heading.textContent()).toBe('Welcome to Sprechstunde');
    expect(await b.page.locator('html').getAttribute('lang')).toBe('en');

    await b.page.goto('/?lng=de');
    await b.page.getByRole('heading', { name: 'Willkommen bei Sprechstunde' }).waitFor();
    expect(await b.page.locator('html').getAttribute('lang')).toBe('de');
  });

  it('shows "Seite nicht gefunden" for an unknown path', async () => {
    await b.page.goto('/diese-seite-gibt-es-nicht');
    await b.page.getByRole('heading', { name: 'Seite nicht gefunden' }).waitFor();
    await b.page.getByRole('link', { name: 'Zur Startseite' }).click();
    await b.page.getByRole('heading', { name: 'Willkommen bei Sprechstunde' }).waitFor();
    expect(new URL(b.page.url()).pathname).toBe('/');
  });

  it('names only files that exist: every script and style a page preloads, and the icon', async () => {
    // The routes the build knows (the set-up builds dist/web before the run).
    const hints = JSON.parse(
      readFileSync(path.join(import.meta.dirname, '../../dist/web', ROUTE_HINTS_FILE), 'utf8'),
    ) as Array<{ pattern: string }>;
    const named = new Set<string>();
    for (const { pattern } of hints) {
      const html = await (await fetch(b.baseUrl + pattern.replace(/:\w+/g, 'x'))).text();
      for (const m of html.matchAll(/<(?:link|script)\b[^>]*\b(?:href|src)="(\/[^"]+)"/g))
        named.add(m[1]!);
    }
    expect(named.size).toBeGreaterThan(20);
    const missing = [];
    for (const file of [...named, '/favicon.ico']) {
      const res = await fetch(b.baseUrl + file);
      await res.arrayBuffer();
      if (res.status !== 200) missing.push(`${file} ${res.status}`);
    }
    expect(missing).toEqual([]);
    expect((await fetch(`${b.baseUrl}/favicon.ico`)).headers.get('content-type')).toMatch(
      /^image\//,
    );
  });
});
