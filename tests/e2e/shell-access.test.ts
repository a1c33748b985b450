import { describe, expect, it } from 'vitest';
import { seriousAxeViolations } from '../support/axe';
import { useBrowser } from '../support/browser';
import { registerByPasscode, seedSession } from '../support/e2e-sign-in';

const b = useBrowser();

const pathAndQuery = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};

describe('protected pages', () => {
  it('send a signed-out visitor to /login, keeping the page as returnTo', async () => {
    await b.page.goto('/support?thema=technik');
    await b.page.waitForURL((url) => url.pathname === '/login');
    expect(pathAndQuery(b.page.url())).toBe('/login?returnTo=%2Fsupport%3Fthema%3Dtechnik');
    // The page is the way in: its form, and no header link pointing at the page itself.
    await b.page.locator('main form').first().waitFor();
    expect(await b.page.getByRole('banner').getByRole('link', { name: 'Anmelden' }).count()).toBe(
      0,
    );
    // The sign-in page it lands on has no serious accessibility problem either.
    expect(await seriousAxeViolations(b.page)).toEqual([]);
    expect(b.pageErrors).toEqual([]);
  });

  it('send a signed-in but inactive person to /notactive with returnTo; the page is accessible', async () => {
    const email = `neu-${Date.now().toString(36)}@example.org`;
    const token = await registerByPasscode(b.baseUrl, email);
    await seedSession(b.context, b.baseUrl, token);

    await b.page.goto('/help');
    await b.page.waitForURL((url) => url.pathname === '/notactive');
    expect(pathAndQuery(b.page.url())).toBe('/notactive?returnTo=%2Fhelp');
    await b.page.getByRole('heading', { name: 'Ihr Konto ist noch nicht aktiv' }).waitFor();
    // The session was cached without the API client, and the header offers to sign out.
    const cached = await b.page.evaluate(() =>
      JSON.parse(localStorage.getItem('session') ?? 'null'),
    );
    expect(cached).toMatchObject({ role: 'NONE', active: false, coach: null });
    expect(await b.page.getByRole('button', { name: 'Abmelden' }).count()).toBe(1);
    expect(await seriousAxeViolations(b.page)).toEqual([]);

    // A wrong activation code is refused in German.
    await b.page.getByLabel('Aktivierungscode').fill('AAAA-BBBB-CCCC');
    await b.page.getByRole('button', { name: 'Aktivieren' }).click();
    await b.page.getByText('Dieser Aktivierungscode ist nicht gültig.', { exact: false }).waitFor();

    // Signing out clears the browser's session and the provider's.
    await b.page.getByRole('button', { name: 'Abmelden' }).click();
    await b.page.waitForURL((url) => url.pathname === '/login');
    expect(pathAndQuery(b.page.url())).toBe('/login?returnTo=%2Fnotactive%3FreturnTo%3D%252Fhelp');
    expect(await b.page.evaluate(() => localStorage.getItem('session'))).toBeNull();
    expect((await b.context.cookies()).find((c) => c.name === 'hanko')).toBeUndefined();
    const me = await fetch(`${b.baseUrl}/api/login`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(me.status).toBe(401);
    expect(b.pageErrors).toEqual([]);
  });

  it('the axe helper does report a serious violation when a page has one', async () => {
    await b.page.goto('/');
    await b.page.getByRole('heading', { level: 1 }).waitFor();
    // A button without a name is a critical violation (button-name).
    await b.page.evaluate(() =>
      document.querySelector('main')!.append(document.createElement('button')),
    );
    const found = await seriousAxeViolations(b.page);
    expect(found.map((v) => v.id)).toContain('button-name');
  });
});
