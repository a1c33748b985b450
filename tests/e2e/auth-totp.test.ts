import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from '../support/browser';

/**
 * An authenticator app (TOTP) end to end in Chromium: set it up in the profile from the QR
 * code / secret the widget shows, sign out, sign in again with the password and the code from
 * the app. The "app" is otpauth computing the code from the secret shown on the page.
 */

const b = useBrowser();

const email = `totp-${Date.now().toString(36)}@example.org`;
const password = 'sehr-geheimes-passwort-2';

async function codeFor(to: string): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const html = await (await fetch(`${b.baseUrl}/dev/mailbox`)).text();
    const mail = html.split('<article>').find((a) => a.includes(`An: ${to}`));
    const code = mail ? /Einmalcode für Sprechstunde: (\d{6})/.exec(mail)?.[1] : undefined;
    if (code) return code;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no one-time code for ${to}`);
}

async function enterCode(page: Page, code: string) {
  await page.getByLabel('Ziffer 1 von 6').click();
  await page.keyboard.type(code);
}

async function heading(page: Page, name: string) {
  await page.getByRole('heading', { name, exact: true }).first().waitFor({ timeout: 15_000 });
}

async function screenTitle(page: Page): Promise<string | null> {
  return page
    .locator('.auth-screen h2')
    .first()
    .textContent({ timeout: 500 })
    .catch(() => null);
}

/** The code an authenticator app shows for `secret`, `stepsAhead` 30-second steps from now. */
function appCode(secret: string, stepsAhead = 0): string {
  return new TOTP({
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
  }).generate({
    timestamp: Date.now() + stepsAhead * 30_000,
  });
}

/** Skips optional offers (passkey, second factor, trusting the device) until `path` is reached. */
async function skipOffersUntil(
  page: Page,
  path: string,
  fill: { password?: string } = {},
): Promise<string[]> {
  const seen: string[] = [];
  const deadline = Date.now() + 30_000;
  while (new URL(page.url()).pathname !== path) {
    if (Date.now() > deadline)
      throw new Error(`stuck at ${page.url()}: ${await page.locator('main').innerText()}`);
    const title = await screenTitle(page);
    if (title === 'Passwort festlegen' && fill.password) {
      seen.push(title);
      await page.getByLabel('Neues Passwort').fill(fill.password);
      await page.getByRole('button', { name: 'Passwort speichern' }).click();
      await page.locator('.auth-screen h2', { hasText: title }).waitFor({ state: 'detached' });
    } else if (
      title &&
      ['Passkey einrichten', 'Zweiten Faktor einrichten', 'Diesem Gerät vertrauen?'].includes(title)
    ) {
      seen.push(title);
      await page.getByRole('button', { name: 'Überspringen' }).click();
      await page.locator('.auth-screen h2', { hasText: title }).waitFor({ state: 'detached' });
    } else {
      await page.waitForTimeout(100);
    }
  }
  return seen;
}

describe('authenticator app (TOTP) in the widget', () => {
  it('sets up the app in the profile, then signs in with password and app code', async () => {
    const { page } = b;

    // A new account with a password.
    await page.goto('/login?returnTo=%2Fprofile');
    await page.getByRole('button', { name: 'Registrieren' }).click();
    await heading(page, 'Konto erstellen');
    await page.getByLabel('E-Mail-Adresse').fill(email);
    await page.getByRole('button', { name: 'Weiter' }).click();
    await heading(page, 'Code eingeben');
    await enterCode(page, await codeFor(email));
    expect(await skipOffersUntil(page, '/profile', { password })).toContain('Passwort festlegen');

    // Profile: the app is not set up yet.
    await heading(page, 'Authenticator-App');
    const appSection = page.locator('section', {
      has: page.getByRole('heading', { name: 'Authenticator-App' }),
    });
    await appSection.getByText('Nicht eingerichtet.').waitFor();
    await appSection.getByRole('button', { name: 'Authenticator-App einrichten' }).click();

    // The set-up screen shows the QR code and the secret.
    await heading(page, 'Authenticator-App einrichten');
    const qr = page.getByRole('img', { name: 'QR-Code für die Authenticator-App' });
    await qr.waitFor();
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    const secret = (await page.getByTestId('otp-secret').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);

    // A wrong code is refused at the field, the boxes are cleared.
    const right = appCode(secret);
    const wrong = right === '000000' ? '111111' : '000000';
    await enterCode(page, wrong);
    await page.getByText('Der Code aus der Authenticator-App ist nicht korrekt.').waitFor();
    expect(await page.getByLabel('Ziffer 1 von 6').inputValue()).toBe('');
    await heading(page, 'Authenticator-App einrichten');

    // The right code sets it up; back in the profile it says so.
    await enterCode(page, appCode(secret));
    await heading(page, 'E-Mail-Adressen');
    await appSection.getByText('Eingerichtet.').waitFor();

    // Sign out.
    await page.getByRole('button', { name: 'Abmelden', exact: true }).first().click();
    await page.getByRole('link', { name: 'Anmelden' }).first().waitFor();

    // Sign in with the password: the widget asks for the app code.
    await page.goto('/login?returnTo=%2Fprofile');
    await heading(page, 'Anmelden');
    await page.getByLabel('E-Mail-Adresse').fill(email);
    await page.getByRole('button', { name: 'Weiter' }).click();
    await heading(page, 'Wie möchten Sie sich anmelden?');
    await page.getByRole('button', { name: 'Mit Passwort' }).click();
    await heading(page, 'Passwort eingeben');
    await page.getByLabel('Passwort', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await heading(page, 'Code aus der Authenticator-App');

    // A wrong code: the German error at the field, still on this screen.
    const now = appCode(secret);
    const next = appCode(secret, 1);
    const bad = ['000000', '111111', '222222'].find(
      (c) => c !== now && c !== next && c !== appCode(secret, -1),
    )!;
    await enterCode(page, bad);
    await page.getByText('Der Code aus der Authenticator-App ist nicht korrekt.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    await expect.poll(() => page.getByLabel('Ziffer 1 von 6').inputValue()).toBe('');

    // The code of the next step (the set-up used the current one; one step of drift is allowed).
    await enterCode(page, next);
    await skipOffersUntil(page, '/profile');
    await heading(page, 'E-Mail-Adressen');
    const lastLogin = await page.evaluate(() => localStorage.getItem('hanko_last_login'));
    expect(JSON.parse(lastLogin ?? 'null')).toMatchObject({
      login_method: 'password',
      mfa_method: 'totp',
    });
    expect(b.pageErrors).toEqual([]);
  });
});
