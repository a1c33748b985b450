import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { createI18n } from '../../src/i18n';
import { billingTransitionTable } from '../../src/machines/actors/staff/billing';
import { batchActionMachine } from '../../src/machines/batch-action.machine';
import { BatchResult, SelectionBar, billingWording } from '../../src/views/billing/BatchParts';
import { readLocales } from '../support/locales';
import { flush, startMachine } from '../support/model';

/** The /billing bar as an admin sees it: count and sum in EUR, only the common actions, the result. */

let i18n: Awaited<ReturnType<typeof createI18n>>['i18n'];
beforeAll(async () => {
  const setup = createI18n({ lng: 'de', resources: readLocales('de', 'en'), debug: false });
  await setup.ready;
  i18n = setup.i18n;
});

const PENDING = { id: 'a', status: 'pending', amountCents: 123_450 };
const FAILED = { id: 'b', status: 'validation_failed', amountCents: 6_500 };

function show(matchCount = 30) {
  const started = startMachine(batchActionMachine, {
    input: { transitions: billingTransitionTable(), filter: {} },
  });
  render(
    <I18nextProvider i18n={i18n}>
      <BatchResult actorRef={started.actor} wording={billingWording()} />
      <SelectionBar
        actorRef={started.actor}
        wording={billingWording()}
        matchCount={matchCount}
        pageRows={25}
      />
    </I18nextProvider>,
  );
  return { ...started, user: userEvent.setup() };
}

/** Intl puts a no-break space before €. */
const text = (el: HTMLElement) => el.textContent?.replace(/\u00a0/g, ' ');
const buttons = () => screen.getAllByRole('button').map((b) => b.textContent);

describe('billing selection bar', () => {
  it('shows count and sum in euros and offers only what the whole selection allows', async () => {
    const r = show();
    expect(screen.getByRole('status').textContent).toContain('Keine Position ausgewählt');
    expect(buttons()).toEqual(['Alle 30 Treffer auswählen']);
    act(() => r.actor.send({ type: 'batch.toggle', item: PENDING }));
    expect(text(screen.getByRole('status'))).toBe('1 Position ausgewählt, Summe 1.234,50 €');
    expect(buttons()).toEqual([
      'Alle 30 Treffer auswählen',
      'Auswahl aufheben',
      'Freigeben',
      'Stornieren',
      'Löschen',
    ]);
    act(() => r.actor.send({ type: 'batch.toggle', item: FAILED }));
    expect(text(screen.getByRole('status'))).toBe('2 Positionen ausgewählt, Summe 1.299,50 €');
    expect(buttons()).toEqual([
      'Alle 30 Treffer auswählen',
      'Auswahl aufheben',
      'Stornieren',
      'Löschen',
    ]);
  });

  it('selects every match through the API and then says "… freigegeben" after the batch', async () => {
    const r = show();
    await r.user.click(screen.getByRole('button', { name: 'Alle 30 Treffer auswählen' }));
    await act(async () => {
      r.fakes.loadMatching!.resolve({
        items: [PENDING, { ...PENDING, id: 'c' }],
        itemCount: 2,
        capped: false,
      });
      await flush();
    });
    expect(text(screen.getByRole('status'))).toBe('2 Positionen ausgewählt, Summe 2.469,00 €');
    await r.user.click(screen.getByRole('button', { name: 'Freigeben' }));
    act(() => r.actor.send({ type: 'batch.confirm' }));
    await act(async () => {
      r.fakes.submitBatch!.resolve({ count: 2 });
      await flush();
    });
    expect(screen.getAllByRole('status').map((s) => s.textContent)).toContain(
      '2 Positionen freigegeben',
    );
  });
});
