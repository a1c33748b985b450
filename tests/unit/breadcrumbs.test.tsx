import { render, screen, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { Breadcrumbs } from '../../src/app/layout/Breadcrumbs';
import { createI18n } from '../../src/i18n';
import { readLocales } from '../support/locales';

// The trail with the real route table: shown from depth 4, hidden at depth 3 and below
// (the specification's screens and constants: breadcrumbs when the route depth is greater than 3).

async function renderAt(path: string) {
  const { i18n, ready } = createI18n({
    lng: 'de',
    resources: readLocales('de', 'en'),
    debug: false,
  });
  await ready;
  const { hook } = memoryLocation({ path });
  return render(
    <I18nextProvider i18n={i18n}>
      <Router hook={hook}>
        <Breadcrumbs />
      </Router>
    </I18nextProvider>,
  );
}

const trail = () => screen.queryByRole('navigation', { name: 'Brotkrümelnavigation' });
const ID = '0f6c2a7e-1f55-4f3e-9a55-0d1c3b7c2a10';

describe('breadcrumbs', () => {
  it('show the trail at depth 4: every step a link, the page itself current', async () => {
    await renderAt(`/clients/${ID}/patient-card`);
    const nav = trail();
    expect(nav).not.toBeNull();
    const items = within(nav!).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual([
      'Startseite',
      'Klient:innen',
      'Klient:in',
      'Patientenkarte',
    ]);
    const links = within(nav!).getAllByRole('link');
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['/', '/clients', `/clients/${ID}`]);
    const current = within(nav!).getByText('Patientenkarte');
    expect(current.getAttribute('aria-current')).toBe('page');
    expect(current.closest('a')).toBeNull();
  });

  it('skip path parts that are no route of their own (depth counts routes, not segments)', async () => {
    // /coach is no page: /coach/meeting/X/join is home, start, overview, room = depth 4.
    await renderAt('/coach/meeting/abc-def/join');
    const items = within(trail()!).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual([
      'Startseite',
      'Videotermin starten',
      'Videotermin: Übersicht',
      'Videotermin',
    ]);
  });

  it.each([`/clients/${ID}`, '/coach/meeting/abc-def', '/clients', '/'])(
    'are hidden at depth 3 and below (%s)',
    async (path) => {
      await renderAt(path);
      expect(trail()).toBeNull();
    },
  );
});
