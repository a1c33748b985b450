import { render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../shared/contract/product';
import { createI18n } from '../../src/i18n';
import { Communications } from '../../src/views/appointment-detail/AppointmentDetailView';
import { readLocales } from '../support/locales';

type Communication = components['schemas']['Communication'];

let i18n: Awaited<ReturnType<typeof createI18n>>['i18n'];
beforeAll(async () => {
  const setup = createI18n({ lng: 'de', resources: readLocales('de', 'en'), debug: false });
  await setup.ready;
  i18n = setup.i18n;
});

const message = (over: Partial<Communication>): Communication => ({
  id: crypto.randomUUID(),
  channel: 'sms',
  attempts: 1,
  template: 'appointment_booked',
  recipient: '+49 170 1234567',
  subject: null,
  status: 'sent',
  sentAt: '2026-11-25T09:00:00Z',
  error: null,
  appointmentId: null,
  clientId: null,
  createdAt: '2026-11-25T09:00:00Z',
  ...over,
});

describe('the message table of an appointment or client', () => {
  it('names what an SMS was about in German, and keeps an e-mail its own subject', () => {
    render(
      <I18nextProvider i18n={i18n}>
        <Communications
          items={[
            message({}),
            message({ template: 'appointment_reminder_1h' }),
            message({ template: 'something_new' }),
            message({
              channel: 'email',
              recipient: 'a@example.test',
              subject: 'Ihr Termin am 1. Dezember',
            }),
          ]}
        />
      </I18nextProvider>,
    );
    const subjects = screen
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.querySelectorAll('td')[3]!.textContent);
    expect(subjects).toEqual([
      'Terminbestätigung',
      'Erinnerung eine Stunde vorher',
      'Nachricht',
      'Ihr Termin am 1. Dezember',
    ]);
    expect(document.body.textContent).not.toContain('appointment_');
  });
});
