import { act, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { createI18n } from '../../src/i18n';
import {
  mailingListMachine,
  type MailingListOverview,
  type MailingListSync,
} from '../../src/machines/mailing-list.machine';
import { MailingListView } from '../../src/views/mailing-list/MailingListPage';
import { readLocales } from '../support/locales';
import { flush, startMachine } from '../support/model';

/**
 * `/admin/mailing-list` as an admin sees it: a running sync's progress, then the
 * last sync's result, and the bounce counts, rendered from the page's machine.
 */
let i18n: Awaited<ReturnType<typeof createI18n>>['i18n'];
beforeAll(async () => {
  const setup = createI18n({ lng: 'de', resources: readLocales('de', 'en'), debug: false });
  await setup.ready;
  i18n = setup.i18n;
});

const sync = (status: MailingListSync['status'], processed: number): MailingListSync => ({
  id: '11111111-1111-4111-8111-111111111111',
  status,
  requestedAt: '2026-11-27T00:00:00.000Z',
  startedAt: '2026-11-27T00:00:01.000Z',
  finishedAt: status === 'done' ? '2026-11-27T00:01:00.000Z' : null,
  total: 120,
  processed,
  added: status === 'done' ? 100 : 40,
  updated: status === 'done' ? 17 : 10,
  failed: status === 'done' ? 3 : 0,
  failures:
    status === 'done'
      ? [{ clientId: '22222222-2222-4222-8222-222222222222', reason: 'looks fake or invalid' }]
      : [],
  error: null,
});
const overview = (s: MailingListSync): MailingListOverview => ({
  configured: true,
  sync: s,
  counts: { consenting: 120, bounced: 3, bouncedHard: 2, bouncedAbuse: 1, unsubscribed: 4 },
});

describe('mailing list page', () => {
  it('shows a running sync with its progress, then the result, and the bounce counts', async () => {
    const { actor, fakes, clock } = startMachine(mailingListMachine);
    render(
      <I18nextProvider i18n={i18n}>
        <MailingListView actorRef={actor} />
      </I18nextProvider>,
    );
    await act(async () => {
      fakes.loadMailingList!.resolve(overview(sync('running', 50)));
      await flush();
    });
    expect(screen.getByRole('status').textContent).toContain(
      'Abgleich läuft: 50 von 120 Klient:innen',
    );
    expect((screen.getByRole('progressbar') as HTMLProgressElement).value).toBe(50);
    expect(screen.getByRole('button', { name: 'Jetzt abgleichen' }).hasAttribute('disabled')).toBe(
      true,
    );
    expect(document.body.textContent).toContain(
      '3 (dauerhaft unzustellbar: 2, Missbrauchsmeldung: 1)',
    );

    await act(async () => {
      clock.increment(60_000);
      await flush();
      fakes.loadMailingList!.resolve(overview(sync('done', 120)));
      await flush();
    });
    expect(screen.queryByRole('progressbar')).toBeNull();
    const last = screen.getByRole('region', { name: 'Letzter Abgleich' });
    expect(last.textContent).toContain('Neu hinzugefügt');
    expect(last.textContent).toContain('100');
    expect(last.textContent).toContain('looks fake or invalid');
  });
});
