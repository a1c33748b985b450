import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it, vi } from 'vitest';
import { AppServicesContext, createAppServices } from '../../src/app/services';
import { createI18n } from '../../src/i18n';
import { NetworkBanner } from '../../src/app/layout/NetworkBanner';
import { readLocales } from '../support/locales';

describe('NetworkBanner', () => {
  it('appears after a network error and reloads the page on retry', async () => {
    const { i18n, ready } = createI18n({ lng: 'de', resources: readLocales('de'), debug: false });
    await ready;
    const reload = vi.fn();
    const services = createAppServices({ reload });
    render(
      <I18nextProvider i18n={i18n}>
        <AppServicesContext value={services}>
          <NetworkBanner />
        </AppServicesContext>
      </I18nextProvider>,
    );
    expect(screen.queryByRole('alert')).toBeNull();

    act(() => services.networkBanner.send({ type: 'networkFailed' }));

    expect(screen.getByRole('alert').textContent).toContain('Verbindung zum Server');
    await userEvent.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
