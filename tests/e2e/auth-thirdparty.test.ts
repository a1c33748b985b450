import { createServer, type AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../server/testing/test-app';
import { useBrowser } from '../support/browser';
import { startFakeOidc, type FakeOidc } from '../support/fake-oidc';

/**
 * Third-party sign-in in Chromium: the widget's "Weiter mit FakeID" button leaves for the
 * (fake) OpenID Connect provider, which sends the browser to the provider's callback at /auth,
 * which sends it back to the login page with ?hanko_token=…; the widget exchanges the token
 * and the person is signed in. This file runs its own app with the provider configured.
 */

const b = useBrowser();
let fake: FakeOidc;
let server: TestApp;
let base = '';

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  fake = await startFakeOidc();
  const port = await freePort();
  base = `http://localhost:${port}`;
  server = await createTestApp({
    withAuthProvider: true,
    env: {
      PUBLIC_URL: base,
      AUTH_THIRDPARTY_PROVIDERS: JSON.stringify([fake.config('fakeid', 'FakeID')]),
    },
  });
  await server.app.listen({ host: '127.0.0.1', port });
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

async function heading(page: Page, name: string) {
  await page.getByRole('heading', { name, exact: true }).first().waitFor({ timeout: 15_000 });
}

describe('third-party sign-in in the widget', () => {
  it('signs up with the provider, lands signed in on returnTo, and signs in again later', async () => {
    const { page } = b;
    const email = `oidc-${Date.now().toString(36)}@example.org`;
    fake.nextAccount = { sub: `e2e-${email}`, email, email_verified: true };

    await page.goto(`${base}/login?returnTo=%2Fprofile`);
    await heading(page, 'Anmelden');
    await page.getByRole('button', { name: 'Weiter mit FakeID' }).click();
    // Provider, callback, back with hanko_token, exchange_token, success → /profile.
    await page.waitForURL((url) => url.pathname === '/profile', { timeout: 20_000 });
    await heading(page, 'E-Mail-Adressen');
    await page.getByText(email).first().waitFor();
    // The profile says where the address came from.
    await page.getByRole('listitem').filter({ hasText: email }).getByText('Über FakeID').waitFor();
    expect(page.url()).not.toContain('hanko_token');
    expect(fake.authorizations).toHaveLength(1);
    expect(fake.refused).toEqual([]);
    const lastLogin = await page.evaluate(() => localStorage.getItem('hanko_last_login'));
    expect(JSON.parse(lastLogin ?? 'null')).toEqual({
      login_method: 'third_party',
      third_party_provider: 'fakeid',
    });

    // Later, on another device: the same provider account signs in to the same account.
    const other = await (await b.newContext()).newPage();
    await other.goto(`${base}/login?returnTo=%2Fprofile`);
    await heading(other, 'Anmelden');
    await other.getByRole('button', { name: 'Weiter mit FakeID' }).click();
    await other.waitForURL((url) => url.pathname === '/profile', { timeout: 20_000 });
    await other.getByText(email).first().waitFor();
    expect(fake.authorizations).toHaveLength(2);
    expect(b.pageErrors).toEqual([]);
  });

  it('says so in German when the person refuses at the provider', async () => {
    const { page } = b;
    fake.deny = true;
    await page.goto(`${base}/login`);
    await heading(page, 'Anmelden');
    await page.getByRole('button', { name: 'Weiter mit FakeID' }).click();
    await page
      .getByText('Der Zugriff wurde verweigert. Die Anmeldung über den Anbieter wurde abgebrochen.')
      .waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(page.url()).not.toContain('error=');
    // The person can try again right away.
    await page.getByRole('button', { name: 'Weiter mit FakeID' }).waitFor();
    expect(b.pageErrors).toEqual([]);
  });
});
