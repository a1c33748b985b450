import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { memoryLocation } from 'wouter/memory-location';
import { App } from '../../src/app/App';
import { createAppServices } from '../../src/app/services';
import { createI18n } from '../../src/i18n';
import { readLocales } from '../support/locales';

async function germanI18n() {
  const { i18n, ready } = createI18n({
    lng: 'de',
    resources: readLocales('de', 'en'),
    debug: false,
  });
  await ready;
  return i18n;
}

describe('HomePage', () => {
  it('tells a signed-out visitor in German what Sprechstunde is and links to sign-in and client sign-up', async () => {
    const i18n = await germanI18n();
    const { hook } = memoryLocation({ path: '/' });
    const services = createAppServices({ reload: () => {} });
    render(<App services={services} i18n={i18n} router={{ hook }} />);
    const main = await screen.findByRole('main');
    const heading = await within(main).findByRole('heading', { level: 1 });
    expect(heading.textContent).toBe('Willkommen bei Sprechstunde');
    expect(within(main).getByText(/Terminplattform für Gesundheitscoaching/)).toBeTruthy();
    const login = await within(main).findByRole('link', { name: 'Anmelden' });
    expect(login.getAttribute('href')).toBe('/login');
    const signup = within(main).getByRole('link', { name: 'Als Klient:in registrieren' });
    expect(signup.getAttribute('href')).toBe('/client-signup');
  });
});

describe('App routes', () => {
  function renderApp(path: string) {
    return germanI18n().then((i18n) => {
      const { hook } = memoryLocation({ path });
      const services = createAppServices({ reload: () => {} });
      return render(<App services={services} i18n={i18n} router={{ hook }} />);
    });
  }

  it('renders the home page at /', async () => {
    await renderApp('/');
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe(
      'Willkommen bei Sprechstunde',
    );
    // Depth 1: no breadcrumbs (they show from depth 4).
    expect(screen.queryByRole('navigation', { name: 'Brotkrümelnavigation' })).toBeNull();
  });

  it('renders "Seite nicht gefunden" for an unknown path', async () => {
    await renderApp('/gibt-es-nicht');
    const main = screen.getByRole('main');
    expect((await within(main).findByRole('heading', { level: 1 })).textContent).toBe(
      'Seite nicht gefunden',
    );
    expect(within(main).getByText(/„\/gibt-es-nicht“/)).toBeTruthy();
    expect(within(main).getByRole('link', { name: 'Zur Startseite' }).getAttribute('href')).toBe(
      '/',
    );
  });
});
