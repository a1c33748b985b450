import { mkdirSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from '../support/browser';
import { registerByPasscode, seedSession, signInByPasscode } from '../support/e2e-sign-in';
import { widgetRoutes } from '../support/widget-routes';

/**
 * The sign-in widget in real Chromium against the real provider at /auth: registration with a
 * one-time code from the development mailbox, password login with returnTo, and the profile
 * (add an address, end another session, delete the account), and passkeys with Chromium's virtual
 * authenticator (registration on one device, sign-in with the copied credential on another).
 */

const b = useBrowser();

const email = `widget-${Date.now().toString(36)}@example.org`;
const secondEmail = `zweite-${Date.now().toString(36)}@example.org`;
const password = 'sehr-geheimes-passwort-1';

/** The newest one-time code mailed to `to`, from the development mailbox. */
async function codeFor(to: string, after = 0): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const html = await (await fetch(`${b.baseUrl}/dev/mailbox`)).text();
    const articles = html.split('<article>').slice(1);
    const mail = articles.find((a) => a.includes(`An: ${to}`));
    const code = mail ? /Einmalcode für Sprechstunde: (\d{6})/.exec(mail)?.[1] : undefined;
    const count = articles.filter((a) => a.includes(`An: ${to}`)).length;
    if (code && count > after) return code;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no one-time code for ${to}`);
}

async function mailCount(to: string): Promise<number> {
  const html = await (await fetch(`${b.baseUrl}/dev/mailbox`)).text();
  return html.split('<article>').filter((a) => a.includes(`An: ${to}`)).length;
}

/** Types the code into the six boxes; the widget sends it by itself. */
async function enterCode(page: Page, code: string) {
  await page.getByLabel('Ziffer 1 von 6').click();
  await page.keyboard.type(code);
}

async function heading(page: Page, name: string) {
  try {
    await page.getByRole('heading', { name, exact: true }).first().waitFor({ timeout: 15_000 });
  } catch (error) {
    console.log('DEBUG', name, page.url(), await page.locator('body').innerText());
    throw error;
  }
}

/**
 * The steps the provider queues after the credential (protocol §3.2/§3.3) depend on its
 * configuration and on what the browser reports: a password to set, a passkey offer (which
 * the person skips), a second factor. Goes through them until the page reached `path`;
 * returns the screens seen.
 */
async function finishOnboarding(
  page: Page,
  path: string,
  options: { createPasskey?: boolean; skipPassword?: boolean } = {},
): Promise<string[]> {
  const seen: string[] = [];
  const deadline = Date.now() + 30_000;
  while (new URL(page.url()).pathname !== path) {
    if (Date.now() > deadline) {
      throw new Error(`stuck at ${page.url()}: ${await page.locator('main').innerText()}`);
    }
    const title = await page
      .locator('.auth-screen h2')
      .first()
      .textContent({ timeout: 500 })
      .catch(() => null);
    if (title === 'Passkey einrichten' && options.createPasskey) {
      seen.push(title);
      await page.getByRole('button', { name: 'Passkey erstellen' }).click();
      await page
        .locator('.auth-screen h2', { hasText: title })
        .waitFor({ state: 'detached' })
        .catch(async (error: unknown) => {
          throw new Error(`passkey not created: ${await page.locator('main').innerText()}`, {
            cause: error,
          });
        });
    } else if (title === 'Passwort festlegen' && !options.skipPassword) {
      seen.push(title);
      expect(await page.getByText('Muss zwischen 8 und 72 Zeichen lang sein.').count()).toBe(1);
      await page.getByLabel('Neues Passwort').fill(password);
      await page.getByRole('button', { name: 'Passwort speichern' }).click();
      await page.locator('.auth-screen h2', { hasText: title }).waitFor({ state: 'detached' });
    } else if (
      title &&
      [
        'Passkey einrichten',
        'Passwort festlegen',
        'Zweiten Faktor einrichten',
        'Diesem Gerät vertrauen?',
      ].includes(title)
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

/** Password login through the widget; returns when `success` navigated away. */
async function passwordLogin(page: Page, returnTo: string) {
  await page.goto(`/login?returnTo=${encodeURIComponent(returnTo)}`);
  await heading(page, 'Anmelden');
  await page.getByLabel('E-Mail-Adresse').fill(email);
  await page.getByRole('button', { name: 'Weiter' }).click();
  await heading(page, 'Wie möchten Sie sich anmelden?');
  await page.getByRole('button', { name: 'Mit Passwort' }).click();
  await heading(page, 'Passwort eingeben');
  await page.getByLabel('Passwort', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Anmelden' }).click();
  await finishOnboarding(page, returnTo);
}

describe('sign-in widget', () => {
  it('registers with a one-time code and a password, in German', async () => {
    const { page } = b;
    const viewport = page.viewportSize();
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto('/login');
    await heading(page, 'Anmelden');
    // The product's look on a phone: a full-width field and button, no sideways scrolling.
    const field = await page.getByLabel('E-Mail-Adresse').boundingBox();
    const next = await page.getByRole('button', { name: 'Weiter' }).boundingBox();
    expect(field?.height).toBeGreaterThanOrEqual(40);
    expect(next?.width).toBeCloseTo(field?.width ?? 0, 0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      375,
    );
    await page.getByRole('button', { name: 'Registrieren' }).click();
    await heading(page, 'Konto erstellen');

    // Widget validation: not an address, nothing sent.
    await page.getByLabel('E-Mail-Adresse').fill('01511234567');
    await page.getByRole('button', { name: 'Weiter' }).click();
    await page.getByText('Bitte geben Sie eine gültige E-Mail-Adresse ein.').waitFor();

    await page.getByLabel('E-Mail-Adresse').fill(email);
    await page.getByRole('button', { name: 'Weiter' }).click();
    await heading(page, 'Code eingeben');

    // The six boxes stand in one row at 375 px, each big enough to tap.
    const boxes = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((n) => page.getByLabel(`Ziffer ${n} von 6`).boundingBox()),
    );
    expect(new Set(boxes.map((box) => Math.round(box?.y ?? -1))).size).toBe(1);
    expect(Math.min(...boxes.map((box) => box?.height ?? 0))).toBeGreaterThanOrEqual(44);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      375,
    );
    if (viewport) await page.setViewportSize(viewport);

    // A wrong code clears the boxes and says so.
    const code = await codeFor(email);
    const wrong = code === '000000' ? '111111' : '000000';
    await enterCode(page, wrong);
    await page.getByText('Der eingegebene Code ist nicht korrekt.').waitFor();
    expect(await page.getByLabel('Ziffer 1 von 6').inputValue()).toBe('');

    await enterCode(page, code);

    // Password (and a skipped passkey offer); success creates the session and moves on.
    const seen = await finishOnboarding(page, '/notactive');
    expect(seen).toContain('Passwort festlegen');
    expect(b.pageErrors).toEqual([]);
  });

  it('signs in with the password and goes to returnTo; the last login is kept locally', async () => {
    const { page } = b;
    await passwordLogin(page, '/profile');
    await heading(page, 'E-Mail-Adressen');
    expect(await page.getByText(email).count()).toBeGreaterThan(0);
    const lastLogin = await page.evaluate(() => localStorage.getItem('hanko_last_login'));
    expect(JSON.parse(lastLogin ?? 'null')).toEqual({ login_method: 'password' });
    expect(b.pageErrors).toEqual([]);
  });

  it('rejects a wrong password at the field', async () => {
    const { page } = b;
    await page.goto('/login');
    await page.getByLabel('E-Mail-Adresse').fill(email);
    await page.getByRole('button', { name: 'Weiter' }).click();
    await page.getByRole('button', { name: 'Mit Passwort' }).click();
    await page.getByLabel('Passwort', { exact: true }).fill('falsches-passwort');
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await page.getByText('E-Mail-Adresse oder Passwort ist falsch.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
  });

  it('shows the error screen at /profile without a session', async () => {
    const { page } = b;
    await page.goto('/profile');
    await page.getByText('Bitte melden Sie sich an, um Ihr Profil zu sehen.').waitFor();
    await page.getByRole('button', { name: 'Weiter' }).waitFor();
  });

  it('adds an e-mail address, ends another session and deletes the account in the profile', async () => {
    const { page } = b;
    // Another device signs in, so there is a session to end.
    const other = await (await b.newContext()).newPage();
    await passwordLogin(other, '/profile');

    await passwordLogin(page, '/profile');
    await heading(page, 'E-Mail-Adressen');

    // Add an address: the code goes to it, then the profile shows it.
    const before = await mailCount(secondEmail);
    await page.getByLabel('E-Mail-Adresse', { exact: true }).fill(secondEmail);
    await page.getByRole('button', { name: 'E-Mail-Adresse hinzufügen' }).click();
    await heading(page, 'Code eingeben');
    await enterCode(page, await codeFor(secondEmail, before));
    await heading(page, 'E-Mail-Adressen');
    await page.getByText(secondEmail).waitFor();

    // End another session (yes/no first).
    const sessions = page.locator('section', {
      has: page.getByRole('heading', { name: 'Sitzungen' }),
    });
    // Each session names its device readably, not by the raw user-agent string.
    const devices = await page
      .locator('section[aria-labelledby="profile-sessions"] .auth-item-name')
      .allTextContents();
    expect(devices.length).toBeGreaterThanOrEqual(2);
    for (const device of devices) expect(device).toBe('Chrome auf Linux');
    const endButtons = sessions.getByRole('button', { name: 'Abmelden' });
    const others = await endButtons.count();
    expect(others).toBeGreaterThanOrEqual(1);
    await endButtons.first().click();
    await sessions.getByRole('button', { name: 'Ja' }).click();
    await page.getByRole('status').filter({ hasText: 'Gespeichert' }).waitFor();
    await expect.poll(() => endButtons.count(), { timeout: 5000 }).toBe(others - 1);

    // Delete the account: only with the box ticked.
    await page.getByRole('button', { name: 'Konto löschen' }).click();
    await heading(page, 'Konto löschen');
    await page.getByRole('button', { name: 'Konto endgültig löschen' }).click();
    await page.getByText('Bitte bestätigen Sie, dass Sie Ihr Konto löschen möchten.').waitFor();
    await page.getByLabel('Ja, ich möchte mein Konto dauerhaft löschen.').check();
    await page.getByRole('button', { name: 'Konto endgültig löschen' }).click();
    await heading(page, 'Konto gelöscht');
    expect(b.pageErrors).toEqual([]);
  });
});

describe('staff activation', () => {
  it('a new staff member follows the invitation mail: registers, enters the code, is active', async () => {
    const token = await signInByPasscode(b.baseUrl, 'admin@sprechstunde.demo');
    const staffEmail = `neu-${Date.now().toString(36)}@example.org`;
    const created = await fetch(`${b.baseUrl}/api/user`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: staffEmail, role: 'ONBOARDING_MANAGER' }),
    });
    expect(created.status).toBe(201);
    const { activationCode } = (await created.json()) as { activationCode: string };

    let invitation: string | undefined;
    for (let attempt = 0; attempt < 50 && !invitation; attempt++) {
      const html = await (await fetch(`${b.baseUrl}/dev/mailbox`)).text();
      invitation = html.split('<article>').find((a) => a.includes(`An: ${staffEmail}`));
      if (!invitation) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(invitation, 'invitation mail').toBeDefined();
    expect(invitation).not.toContain(activationCode);
    const link = /(https?:\/\/[^\s<"]+\/activate)\b/.exec(invitation!)?.[1];
    expect(link, 'activation link').toBeDefined();

    // At 375 px, as on the phone the mail is read on.
    const page = await (await b.newContext({ viewport: { width: 375, height: 800 } })).newPage();
    await page.goto(new URL(link!).pathname);
    await heading(page, 'Konto aktivieren');
    await heading(page, 'Konto erstellen');
    // `npm run screenshots` (SCREENSHOTS=1) keeps docs/screenshots current; other runs leave it.
    if (process.env.SCREENSHOTS === '1') {
      mkdirSync('docs/screenshots', { recursive: true });
      await page.screenshot({ path: 'docs/screenshots/sign-in.png', fullPage: true });
    }
    await page.getByLabel('E-Mail-Adresse').fill(staffEmail);
    await page.getByRole('button', { name: 'Weiter' }).click();
    await heading(page, 'Code eingeben');
    await enterCode(page, await codeFor(staffEmail));
    // The provider's offers (password, passkey) are skipped; then the code field, same page.
    const codeField = page.getByLabel('Aktivierungscode');
    const deadline = Date.now() + 30_000;
    while (!(await codeField.isVisible().catch(() => false))) {
      if (Date.now() > deadline)
        throw new Error(`no code field: ${await page.locator('main').innerText()}`);
      const skip = page.getByRole('button', { name: 'Überspringen' });
      if (await skip.isVisible().catch(() => false))
        await skip.click({ timeout: 3000 }).catch(() => undefined);
      await page.waitForTimeout(150);
    }
    expect(new URL(page.url()).pathname).toBe('/activate');
    await codeField.fill(activationCode);
    await page.getByRole('button', { name: 'Aktivieren' }).click();
    await page.waitForURL((url) => url.pathname !== '/activate', { timeout: 15_000 });
    await page.getByText('Ihr Konto ist jetzt aktiv.').waitFor();
    expect(b.pageErrors).toEqual([]);
  });
});

describe('sign-in widget without a password', () => {
  const codeEmail = `ohne-passwort-${Date.now().toString(36)}@example.org`;

  it('goes straight to the code, and a skipped passkey offer is not repeated', async () => {
    const { page } = b;
    await page.goto('/login');
    await page.getByRole('button', { name: 'Registrieren' }).click();
    await heading(page, 'Konto erstellen');
    await page.getByLabel('E-Mail-Adresse').fill(codeEmail);
    await page.getByRole('button', { name: 'Weiter' }).click();
    await heading(page, 'Code eingeben');
    await enterCode(page, await codeFor(codeEmail));
    const atRegistration = await finishOnboarding(page, '/notactive', { skipPassword: true });
    expect(atRegistration).toEqual(
      expect.arrayContaining(['Passkey einrichten', 'Passwort festlegen']),
    );

    // Another browser: the address leads straight to the code, no "Mit Passwort", no offer.
    const other = await (await b.newContext()).newPage();
    await other.goto('/login');
    await heading(other, 'Anmelden');
    const before = await mailCount(codeEmail);
    await other.getByLabel('E-Mail-Adresse').fill(codeEmail);
    await other.getByRole('button', { name: 'Weiter' }).click();
    await heading(other, 'Code eingeben');
    expect(await other.getByRole('button', { name: 'Mit Passwort' }).count()).toBe(0);
    expect(
      await other.getByRole('heading', { name: 'Wie möchten Sie sich anmelden?' }).count(),
    ).toBe(0);
    await enterCode(other, await codeFor(codeEmail, before));
    const atSignIn = await finishOnboarding(other, '/notactive');
    expect(atSignIn).not.toContain('Passkey einrichten');
    expect(b.pageErrors).toEqual([]);
  });
});

/** A platform authenticator that says yes by itself (CDP WebAuthn domain). */
async function virtualAuthenticator(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

describe('sign-in widget with passkeys', () => {
  const passkeyEmail = `passkey-${Date.now().toString(36)}@example.org`;

  it('creates a passkey at registration and signs in with it on another device', async () => {
    const { page, context } = b;
    const first = await virtualAuthenticator(context, page);
    await page.goto('/login');
    await page.getByRole('button', { name: 'Registrieren' }).click();
    await page.getByLabel('E-Mail-Adresse').fill(passkeyEmail);
    await page.getByRole('button', { name: 'Weiter' }).click();
    await heading(page, 'Code eingeben');
    await enterCode(page, await codeFor(passkeyEmail));
    const seen = await finishOnboarding(page, '/notactive', { createPasskey: true });
    expect(seen).toContain('Passkey einrichten');
    const { credentials } = await first.cdp.send('WebAuthn.getCredentials', {
      authenticatorId: first.authenticatorId,
    });
    expect(credentials).toHaveLength(1);

    // Another browser with the same passkey (copied into its authenticator) signs in with it.
    const otherContext = await b.newContext();
    const other = await otherContext.newPage();
    const second = await virtualAuthenticator(otherContext, other);
    await second.cdp.send('WebAuthn.addCredential', {
      authenticatorId: second.authenticatorId,
      credential: credentials[0]!,
    });
    await other.goto('/login?returnTo=%2Fprofile');
    // Autofill may sign in before the form is even seen: wait for the form or the profile.
    await other
      .getByRole('heading', { name: 'Anmelden', exact: true })
      .or(other.getByRole('heading', { name: 'Profil', exact: true }))
      .first()
      .waitFor({ timeout: 15_000 });
    // Autofill (conditional mediation) may already have used it; otherwise the button does.
    const button = other.getByRole('button', { name: 'Mit Passkey anmelden' });
    if (new URL(other.url()).pathname === '/login' && (await button.count()) > 0) {
      await button.click().catch(() => {});
    }
    await finishOnboarding(other, '/profile');
    await heading(other, 'Passkeys');
    const lastLogin = await other.evaluate(() => localStorage.getItem('hanko_last_login'));
    expect(JSON.parse(lastLogin ?? 'null')).toMatchObject({ login_method: 'passkey' });
    expect(b.pageErrors).toEqual([]);
  });
});

/**
 * The widget looks the same wherever it shows: each route that renders it (read from
 * the route table, so a new one is not forgotten) is opened as the first page of a fresh browser
 * at 375 and 1440 px and taken to the code step, whose six boxes must stand in one row. The
 * sign-up's password step: a full-size field and "Überspringen" and "Zurück" apart.
 */
describe("the widget's look on every route that shows it", () => {
  const run = Date.now().toString(36);
  let account: { email: string; token: string } | undefined;
  /** A registered account without a password (its sign-in goes straight to the code). */
  const registered = async () => {
    if (!account) {
      const address = `aussehen-${run}@example.org`;
      account = { email: address, token: await registerByPasscode(b.baseUrl, address) };
    }
    return account;
  };
  let n = 0;
  const fresh = () => `aussehen-${run}-${++n}@example.org`;

  /** Sign-in with a code: the address, "Weiter", and the code if a chooser asks first. */
  const signInToCode = async (page: Page) => {
    await page.getByLabel('E-Mail-Adresse').fill((await registered()).email);
    await page.getByRole('button', { name: 'Weiter' }).click();
    const byCode = page.getByRole('button', { name: 'Mit einem Code per E-Mail' });
    await byCode.or(page.getByLabel('Ziffer 1 von 6')).first().waitFor({ timeout: 20_000 });
    if (await byCode.isVisible().catch(() => false)) await byCode.click();
  };

  /** How each route reaches its code step; returns the address the code goes to. */
  const toCodeStep: Record<string, (page: Page) => Promise<string>> = {
    '/login': async (page) => {
      await page.goto('/login');
      await signInToCode(page);
      return (await registered()).email;
    },
    '/client-signup/login': async (page) => {
      await page.goto('/client-signup/login');
      await signInToCode(page);
      return (await registered()).email;
    },
    '/client-signup': async (page) => {
      const address = fresh();
      await page.goto('/client-signup');
      await page.getByLabel('Vorname', { exact: true }).fill('Klara');
      await page.getByLabel('Nachname', { exact: true }).fill(`Aussehen-${run}`);
      await page.getByLabel('E-Mail-Adresse').fill(address);
      await page.getByLabel('Telefonnummer', { exact: true }).fill('0151 2345678');
      await page.getByLabel('Geburtsjahr').fill('1985');
      await page.getByLabel('Straße und Hausnummer').fill('Hauptstraße 1');
      await page.getByLabel('Postleitzahl').fill('10115');
      await page.getByLabel('Ort', { exact: true }).fill('Berlin');
      await page.getByLabel(/Datenschutzerklärung/).check();
      await page.getByRole('button', { name: 'Weiter' }).click();
      return address;
    },
    '/activate': async (page) => {
      const address = fresh();
      await page.goto('/activate');
      await heading(page, 'Konto erstellen');
      await page.getByLabel('E-Mail-Adresse').fill(address);
      await page.getByRole('button', { name: 'Weiter' }).click();
      return address;
    },
    '/profile': async (page) => {
      const address = fresh();
      await seedSession(page.context(), b.baseUrl, (await registered()).token);
      await page.goto('/profile');
      await heading(page, 'E-Mail-Adressen');
      await page.getByLabel('E-Mail-Adresse', { exact: true }).fill(address);
      await page.getByRole('button', { name: 'E-Mail-Adresse hinzufügen' }).click();
      return address;
    },
  };

  async function expectOneRowOfBoxes(page: Page, where: string) {
    await heading(page, 'Code eingeben');
    const boxes = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((i) => page.getByLabel(`Ziffer ${i} von 6`).boundingBox()),
    );
    const rows = new Set(boxes.map((box) => Math.round(box?.y ?? -1)));
    expect(rows.size, `${where}: the code boxes stand in ${rows.size} rows`).toBe(1);
    expect(
      Math.min(...boxes.map((box) => box?.height ?? 0)),
      `${where}: box height`,
    ).toBeGreaterThanOrEqual(44);
    expect(
      Math.min(...boxes.map((box) => box?.width ?? 0)),
      `${where}: box width`,
    ).toBeGreaterThanOrEqual(30);
    // The boxes sit in the widget's card, not in a browser-default framed fieldset.
    const frame = await page
      .locator('.auth-code')
      .evaluate((el) => getComputedStyle(el).borderTopStyle);
    expect(frame, `${where}: the code fieldset's frame`).toBe('none');
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(overflow, `${where}: sideways scroll`).toBeLessThanOrEqual(0);
  }

  it('finds the widget in the route table', () => {
    // Every route that shows the widget has a way to its code step here; a new one fails.
    expect(Object.keys(toCodeStep).sort()).toEqual([...widgetRoutes()].sort());
  });

  for (const width of [375, 1440]) {
    it(`shows six code boxes in one row on every route at ${width} px`, async () => {
      for (const path of widgetRoutes()) {
        const page = await (await b.newContext({ viewport: { width, height: 900 } })).newPage();
        const address = await toCodeStep[path]!(page);
        await expectOneRowOfBoxes(page, `${path} at ${width} px`);
        if (path !== '/client-signup') continue;

        if (width === 375 && process.env.SCREENSHOTS === '1') {
          mkdirSync('docs/screenshots', { recursive: true });
          await page.screenshot({ path: 'docs/screenshots/client-code-step.png', fullPage: true });
        }
        // The sign-up's password step: a field of the card's width, links apart and readable.
        await enterCode(page, await codeFor(address));
        const passwordTitle = page.locator('.auth-screen h2', { hasText: 'Passwort festlegen' });
        const deadline = Date.now() + 30_000;
        while (!(await passwordTitle.isVisible().catch(() => false))) {
          if (Date.now() > deadline)
            throw new Error(`no password step: ${await page.locator('main').innerText()}`);
          const skip = page.getByRole('button', { name: 'Überspringen' });
          const title = await page
            .locator('.auth-screen h2')
            .first()
            .textContent({ timeout: 500 })
            .catch(() => null);
          if (title === 'Passkey einrichten')
            await skip.click({ timeout: 3000 }).catch(() => undefined);
          await page.waitForTimeout(150);
        }
        const field = (await page.getByLabel(/Neues Passwort/).boundingBox())!;
        const card = (await page.locator('.auth-widget').boundingBox())!;
        expect(field.height, `password field height at ${width} px`).toBeGreaterThanOrEqual(40);
        expect(field.width, `password field width at ${width} px`).toBeGreaterThanOrEqual(
          card.width * 0.8,
        );
        const skip = page.getByRole('button', { name: 'Überspringen' });
        const back = page.getByRole('button', { name: 'Zurück', exact: true });
        const [a, c] = [(await skip.boundingBox())!, (await back.boundingBox())!];
        const apart =
          a.y + a.height <= c.y ||
          c.y + c.height <= a.y ||
          a.x + a.width + 8 <= c.x ||
          c.x + c.width + 8 <= a.x;
        expect(apart, `"Überspringen" and "Zurück" apart at ${width} px`).toBe(true);
        for (const link of [skip, back]) {
          const size = await link.evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
          expect(size, `link text size at ${width} px`).toBeGreaterThanOrEqual(15);
          expect(
            (await link.boundingBox())!.height,
            `link target height at ${width} px`,
          ).toBeGreaterThanOrEqual(24);
        }
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - window.innerWidth,
        );
        expect(overflow, `password step sideways scroll at ${width} px`).toBeLessThanOrEqual(0);
      }
      expect(b.pageErrors).toEqual([]);
      // Five fresh browsers, each through the flow to its code: more than one test's minute.
    }, 240_000);
  }
});
