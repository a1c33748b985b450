import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { memoryLocation } from 'wouter/memory-location';
import { App } from '../../src/app/App';
import { createAppServices } from '../../src/app/services';
import type { BrowserSessionStore } from '../../src/machines/actors/session';
import { createI18n } from '../../src/i18n';
import type { SessionInfo } from '../../src/machines/session.machine';
import { permissionsOf } from '../../server/access/permissions';
import { readLocales } from '../support/locales';

/** The whole app in jsdom with a fake server, to see what a person sees per session. */
async function renderApp(
  path: string,
  options: {
    session?: SessionInfo;
    width?: number;
    respond?: (url: URL, init: Request) => Response | Promise<Response>;
  } = {},
) {
  const { i18n, ready } = createI18n({
    lng: 'de',
    resources: readLocales('de', 'en'),
    debug: false,
  });
  await ready;
  const stored = {
    token: options.session ? 'jwt' : null,
    session: options.session ?? null,
  } as { token: string | null; session: SessionInfo | null };
  const sessionStore: BrowserSessionStore = {
    readToken: () => stored.token,
    writeToken: (t) => void (stored.token = t),
    readSession: () => stored.session,
    writeSession: (s) => void (stored.session = s),
    clear: () => Object.assign(stored, { token: null, session: null }),
  };
  const requests: Request[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    requests.push(request);
    const url = new URL(request.url);
    return (await options.respond?.(url, request)) ?? new Response(null, { status: 204 });
  });
  const services = createAppServices({
    reload: () => {},
    sessionStore,
    fetch,
    apiBaseUrl: 'http://app.test/api',
    authBaseUrl: 'http://app.test/auth',
    window: { innerWidth: options.width ?? 1400, addEventListener: () => {} },
  });
  const location = memoryLocation({ path, record: true });
  const view = render(
    <App
      services={services}
      i18n={i18n}
      router={{ hook: location.hook, searchHook: location.searchHook }}
    />,
  );
  return { view, services, location, stored, requests };
}

const person = (role: SessionInfo['role'], active = true): SessionInfo => ({
  userId: '5b0c6f0e-8a4b-4c61-9a55-0d8f5b7b1e01',
  role,
  active,
  coach: null,
  // What the server's login answer grants the role.
  permissions: permissionsOf(role),
});

const json = (status: number, body: unknown, type = 'application/json') =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': type } });

describe('the protected wrapper', () => {
  it('sends a signed-out visitor of /help to /login, carrying the page', async () => {
    const { location } = await renderApp('/help?video=2');
    await waitFor(() =>
      expect(location.history!.at(-1)).toBe('/login?returnTo=%2Fhelp%3Fvideo%3D2'),
    );
  });

  it('sends an inactive user to /notactive and on to the page after activation', async () => {
    const { location, requests } = await renderApp('/support', {
      session: person('COACH', false),
      respond: (url) =>
        url.pathname === '/api/user/activate' ? json(200, person('COACH', true)) : undefined!,
    });
    await waitFor(() => expect(location.history!.at(-1)).toBe('/notactive?returnTo=%2Fsupport'));
    const main = screen.getByRole('main');
    await within(main).findByRole('heading', { name: 'Ihr Konto ist noch nicht aktiv' });
    await userEvent.type(within(main).getByLabelText('Aktivierungscode'), 'abcd-efgh-jkmn');
    await userEvent.click(within(main).getByRole('button', { name: 'Aktivieren' }));
    await waitFor(() => expect(location.history!.at(-1)).toBe('/support'));
    const sent = requests.find((r) => r.url.endsWith('/api/user/activate'))!;
    expect(sent.headers.get('Authorization')).toBe('Bearer jwt');
    expect(await screen.findByRole('heading', { name: 'Support', level: 1 })).toBeTruthy();
    expect(screen.getByText('Ihr Konto ist jetzt aktiv.')).toBeTruthy();
  });

  it('shows a wrong activation code as an error and stays', async () => {
    await renderApp('/activate', {
      session: person('NONE', false),
      respond: () =>
        json(
          400,
          { status: 400, code: 'activation_code_invalid', title: 'Bad Request' },
          'application/problem+json',
        ),
    });
    await userEvent.type(await screen.findByLabelText('Aktivierungscode'), 'falsch');
    await userEvent.click(screen.getByRole('button', { name: 'Aktivieren' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Dieser Aktivierungscode ist nicht gültig. Bitte prüfen Sie Ihre Eingabe.',
    );
  });

  it('tells a coach that the dashboard is not for their role', async () => {
    await renderApp('/dashboard', { session: person('COACH') });
    expect(await screen.findByRole('heading', { name: 'Kein Zugriff' })).toBeTruthy();
  });
});

describe('navigation', () => {
  // The menu's code loads on demand once someone active is signed in: it appears shortly after.
  const menuLinks = async () =>
    within(await screen.findByRole('navigation', { name: 'Hauptnavigation' }))
      .getAllByRole('link')
      .map((a) => a.textContent);

  it('a SUPERADMIN sees the dashboard, help and support (the routes that exist today)', async () => {
    await renderApp('/', { session: person('SUPERADMIN') });
    expect(await menuLinks()).toEqual(
      expect.arrayContaining(['Admin (Dashboard)', 'Hilfe', 'Support']),
    );
  });

  it('a coach sees help and support but not the dashboard', async () => {
    await renderApp('/', { session: person('COACH') });
    const links = await menuLinks();
    expect(links).toEqual(expect.arrayContaining(['Hilfe', 'Support']));
    expect(links).not.toContain('Admin (Dashboard)');
  });

  it('a client and a signed-out visitor get no menu; the header offers the matching button', async () => {
    await renderApp('/', { session: person('NONE') });
    expect(screen.queryByRole('navigation', { name: 'Hauptnavigation' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Abmelden' })).toBeTruthy();
  });

  it('the header signs in on the sign-in that fits the page: the client one on client pages', async () => {
    const loginIn = async (path: string) => {
      const { view } = await renderApp(path);
      const link = await within(screen.getByRole('banner')).findByRole('link', {
        name: 'Anmelden',
      });
      const href = link.getAttribute('href');
      view.unmount();
      return href;
    };
    expect(await loginIn('/client-signup')).toBe('/client-signup/login');
    expect(await loginIn('/meeting/ABCD-EFGH')).toBe('/client-signup/login');
    expect(await loginIn('/')).toBe('/login');
  });

  it('a signed-in client finds "Mein Termin" and "Abmelden" on every page, and no sign-in on the welcome page', async () => {
    for (const path of ['/', '/client-signup/appointment-selection', '/meetingfinished']) {
      const { view } = await renderApp(path, { session: person('NONE') });
      const banner = screen.getByRole('banner');
      const mine = await within(banner).findByRole('link', { name: 'Mein Termin' });
      expect(mine.getAttribute('href')).toBe('/mein-termin');
      expect(within(banner).getByRole('button', { name: 'Abmelden' })).toBeTruthy();
      if (path === '/') {
        const main = screen.getByRole('main');
        expect(within(main).queryByRole('link', { name: 'Anmelden' })).toBeNull();
        expect(within(main).queryByRole('link', { name: 'Als Klient:in registrieren' })).toBeNull();
        expect(within(main).getByRole('link', { name: 'Zu meinem Termin' })).toBeTruthy();
      }
      view.unmount();
    }
  });

  it('sends someone signed in whose account is not active from the welcome page to /notactive', async () => {
    const { location } = await renderApp('/', { session: person('NONE', false) });
    expect(
      await screen.findByRole('heading', { name: 'Ihr Konto ist noch nicht aktiv' }),
    ).toBeTruthy();
    expect(location.history!.at(-1)).toBe('/notactive');
  });

  it('every page has a footer with Impressum and Datenschutz', async () => {
    for (const path of ['/', '/client-signup', '/gibt-es-nicht']) {
      const { view } = await renderApp(path);
      const legal = within(screen.getByRole('contentinfo')).getByRole('navigation', {
        name: 'Rechtliches',
      });
      expect(within(legal).getByRole('link', { name: 'Impressum' }).getAttribute('href')).toBe(
        '/impressum',
      );
      expect(within(legal).getByRole('link', { name: 'Datenschutz' }).getAttribute('href')).toBe(
        '/datenschutz',
      );
      view.unmount();
    }
  });

  it('at 375 px the menu is a closed drawer that opens and closes after navigating', async () => {
    const { location } = await renderApp('/', { session: person('ADMIN'), width: 375 });
    const toggle = await screen.findByRole('button', { name: 'Menü öffnen' });
    expect(screen.queryByRole('navigation', { name: 'Hauptnavigation' })).toBeNull();
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await userEvent.click(toggle);
    await userEvent.click(
      within(screen.getByRole('navigation', { name: 'Hauptnavigation' })).getByRole('link', {
        name: 'Hilfe',
      }),
    );
    expect(location.history!.at(-1)).toBe('/help');
    expect(screen.queryByRole('navigation', { name: 'Hauptnavigation' })).toBeNull();
  });

  it('logging out ends the provider session, clears the browser and says so', async () => {
    const { stored, requests } = await renderApp('/', { session: person('ADMIN') });
    await userEvent.click(screen.getByRole('button', { name: 'Abmelden' }));
    await waitFor(() => expect(stored).toEqual({ token: null, session: null }));
    const logout = requests.find((r) => r.url === 'http://app.test/auth/logout')!;
    expect(logout.method).toBe('POST');
    expect(logout.headers.get('Authorization')).toBe('Bearer jwt');
    expect(await screen.findByText('Sie haben sich abgemeldet.')).toBeTruthy();
    // Staff start on "Heute", which needs a session: the header offers no sign-out any more.
    await waitFor(() =>
      expect(
        within(screen.getByRole('banner')).queryByRole('button', { name: 'Abmelden' }),
      ).toBeNull(),
    );
  });
});

describe('session end noticed by the API', () => {
  it('a 401 from any call signs out, says so and sends the person to /login', async () => {
    const { location, stored } = await renderApp('/dashboard', {
      session: person('SUPERADMIN'),
      respond: () =>
        json(
          401,
          { status: 401, code: 'unauthorized', title: 'Unauthorized' },
          'application/problem+json',
        ),
    });
    await waitFor(() => expect(location.history!.at(-1)).toBe('/login?returnTo=%2Fdashboard'));
    expect(stored).toEqual({ token: null, session: null });
    expect(
      await screen.findByText('Ihre Sitzung ist abgelaufen. Bitte melden Sie sich erneut an.'),
    ).toBeTruthy();
  });
});

describe('account deactivated since the session was cached', () => {
  it('a 403 inactive_user reloads the session and leads to /notactive', async () => {
    const { location, stored } = await renderApp('/dashboard', {
      session: person('SUPERADMIN'),
      respond: (url) =>
        url.pathname === '/api/login'
          ? json(200, person('SUPERADMIN', false))
          : json(
              403,
              { status: 403, code: 'inactive_user', title: 'Forbidden' },
              'application/problem+json',
            ),
    });
    await waitFor(() => expect(location.history!.at(-1)).toBe('/notactive?returnTo=%2Fdashboard'));
    expect(stored.session?.active).toBe(false);
  });
});

describe('support form', () => {
  it('names the missing fields, sends a valid request once and confirms it', async () => {
    const { requests } = await renderApp('/support', {
      session: person('COACH'),
      respond: (url) =>
        url.pathname === '/api/support/message'
          ? json(201, { id: '9b8c7d6e-5f4a-4b3c-8d2e-1f0a9b8c7d6e' })
          : undefined!,
    });
    const main = screen.getByRole('main');
    await userEvent.click(await within(main).findByRole('button', { name: 'Anfrage senden' }));
    expect(within(main).getAllByText('Bitte füllen Sie dieses Feld aus.')).toHaveLength(3);
    expect(requests.filter((r) => r.url.endsWith('/support/message'))).toHaveLength(0);

    await userEvent.selectOptions(within(main).getByLabelText('Thema'), 'technical');
    await userEvent.type(within(main).getByLabelText('Betreff'), 'Kalender lädt nicht');
    await userEvent.type(
      within(main).getByLabelText('Nachricht'),
      'Seit heute Morgen bleibt er leer.',
    );
    await userEvent.click(within(main).getByRole('button', { name: 'Anfrage senden' }));

    expect(
      await within(main).findByText('Vielen Dank, Ihre Supportanfrage ist eingegangen.'),
    ).toBeTruthy();
    const sent = requests.filter((r) => r.url.endsWith('/api/support/message'));
    expect(sent).toHaveLength(1);
    expect(await sent[0]!.json()).toEqual({
      category: 'technical',
      subject: 'Kalender lädt nicht',
      message: 'Seit heute Morgen bleibt er leer.',
    });
    expect(screen.getByText('Ihre Supportanfrage wurde gesendet.')).toBeTruthy();
  });

  it('offers a retry after a failed send', async () => {
    let calls = 0;
    await renderApp('/support', {
      session: person('ADMIN'),
      respond: (url) => {
        if (url.pathname !== '/api/support/message') return undefined!;
        calls += 1;
        return calls === 1
          ? json(503, { status: 503, code: 'unavailable', title: 'x' }, 'application/problem+json')
          : json(201, { id: '9b8c7d6e-5f4a-4b3c-8d2e-1f0a9b8c7d6e' });
      },
    });
    const main = screen.getByRole('main');
    await userEvent.selectOptions(await within(main).findByLabelText('Thema'), 'other');
    await userEvent.type(within(main).getByLabelText('Betreff'), 'Frage');
    await userEvent.type(within(main).getByLabelText('Nachricht'), 'Text');
    await userEvent.click(within(main).getByRole('button', { name: 'Anfrage senden' }));
    await userEvent.click(await within(main).findByRole('button', { name: 'Erneut senden' }));
    expect(
      await within(main).findByText('Vielen Dank, Ihre Supportanfrage ist eingegangen.'),
    ).toBeTruthy();
    expect(calls).toBe(2);
  });
});

describe('dashboard', () => {
  it('shows what an admin acts on as cards with links, and a retry after an error', async () => {
    let fail = true;
    await renderApp('/dashboard', {
      session: person('SUPERADMIN'),
      respond: (url) => {
        if (fail)
          return json(
            500,
            { status: 500, code: 'internal_error', title: 'x' },
            'application/problem+json',
          );
        const counts: Record<string, unknown> = {
          '/api/user': { users: [], itemCount: 12 },
          '/api/coach': { coaches: [], itemCount: 5 },
          '/api/communications/failed': { communications: [], itemCount: 3 },
          '/api/admin/client': { clients: [], itemCount: 1000, itemCountCapped: true },
          '/api/appointments': {
            appointments: [],
            itemCount: url.searchParams.get('toDate')! < '2000' ? 0 : 34,
            itemCountCapped: false,
          },
          '/api/billable-items': {
            billableItems: [],
            itemCount: 0,
            amountCentsTotal: 0,
            statusTotals: {
              pending: { count: 7, amountCents: 0 },
              validation_failed: { count: 2, amountCents: 0 },
              approved: { count: 0, amountCents: 0 },
              invoice_sent: { count: 0, amountCents: 0 },
              cancelled: { count: 0, amountCents: 0 },
            },
          },
        };
        return json(200, counts[url.pathname]);
      },
    });
    const retry = await screen.findByRole('button', { name: 'Erneut versuchen' });
    fail = false;
    await act(() => userEvent.click(retry));
    const cards = await screen.findByRole('list', { name: 'Auf einen Blick' });
    const items = within(cards)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(items).toEqual([
      'Termine heute34',
      'Termine diese Woche34',
      'Klient:innen mit offenen Sitzungenmehr als 1.000',
      'Abrechnungspositionen zur Freigabe7',
      'Abrechnungspositionen mit Prüffehlern2',
      'Nicht zugestellte Nachrichten3',
      'Benutzer:innen12',
      'Coaches5',
    ]);
    const link = (name: RegExp) => within(cards).getByRole('link', { name }).getAttribute('href');
    expect(link(/^Termine heute/)).toMatch(
      /^\/appointments\?from=\d{4}-\d{2}-\d{2}&to=\d{4}-\d{2}-\d{2}$/,
    );
    expect(link(/^Klient:innen/)).toBe('/clients?sortBy=createdAt&sortOrder=desc&limit=10');
    expect(link(/Prüffehlern/)).toBe('/billing?status=validation_failed');
    expect(link(/^Nicht zugestellte/)).toBe('/messages/failed');
  });
});
