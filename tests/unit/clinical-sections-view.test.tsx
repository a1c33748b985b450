import { render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../shared/contract/product';
import { createI18n } from '../../src/i18n';
import { ClientClinicalSection, SummarySection } from '../../src/views/clinical/ClinicalSections';
import { readLocales } from '../support/locales';

type Schemas = components['schemas'];

let i18n: Awaited<ReturnType<typeof createI18n>>['i18n'];
beforeAll(async () => {
  const setup = createI18n({ lng: 'de', resources: readLocales('de', 'en'), debug: false });
  await setup.ready;
  i18n = setup.i18n;
});

const APPOINTMENT_ID = '0b3c4d5e-6f70-4182-93a4-b5c6d7e8f901';
const CLIENT_ID = '1c2d3e4f-5061-4728-8394-a5b6c7d8e9f0';
const draft: Schemas['ClinicalDocumentStatus'] = {
  id: '2d3e4f50-6172-4839-94a5-b6c7d8e9f0a1',
  appointmentId: APPOINTMENT_ID,
  appointmentStartDate: '2026-11-20T09:00:00.000Z',
  status: 'new',
  availability: 'blocker',
  blockers: [
    { code: 'sections_incomplete', message: 'Nicht alle Abschnitte der Vorlage sind ausgefüllt.' },
  ],
  signedAt: null,
  completedAt: null,
  completedByName: null,
};
const appointment = { id: APPOINTMENT_ID } as Schemas['Appointment'];
const wrap = (node: React.ReactNode) =>
  render(<I18nextProvider i18n={i18n}>{node}</I18nextProvider>);

describe('clinical statuses on the detail pages', () => {
  it('offers the coach the editor, with the status and what blocks signing', () => {
    wrap(
      <SummarySection
        appointment={appointment}
        clinical={{ patientCard: null, summaries: [draft] }}
        canWrite
        held
      />,
    );
    expect(screen.getByText('Entwurf')).toBeTruthy();
    expect(screen.getByText('Nicht alle Abschnitte der Vorlage sind ausgefüllt.')).toBeTruthy();
    const link = screen.getByRole('link', { name: 'Zusammenfassung weiterschreiben' });
    expect(link.getAttribute('href')).toBe(`/appointments/${APPOINTMENT_ID}/summary`);
  });

  it('shows an onboarding manager the status only, never a way into the content', () => {
    wrap(
      <>
        <SummarySection
          appointment={appointment}
          clinical={{ patientCard: draft, summaries: [draft] }}
          canWrite={false}
          held
        />
        <ClientClinicalSection
          clientId={CLIENT_ID}
          clinical={{ patientCard: draft, summaries: [draft] }}
          canWrite={false}
          startAt={APPOINTMENT_ID}
        />
      </>,
    );
    expect(screen.getAllByText('Entwurf').length).toBeGreaterThan(1);
    expect(screen.queryByRole('link', { name: /Zusammenfassung|Patientenkarte/ })).toBeNull();
    for (const link of screen.queryAllByRole('link'))
      expect(link.getAttribute('href')).not.toMatch(/summary|patient-card/);
  });

  it('offers to start a card at the latest held appointment when the client has none', () => {
    wrap(
      <ClientClinicalSection
        clientId={CLIENT_ID}
        clinical={{ patientCard: null, summaries: [] }}
        canWrite
        startAt={APPOINTMENT_ID}
      />,
    );
    const link = screen.getByRole('link', { name: 'Patientenkarte anlegen' });
    expect(link.getAttribute('href')).toBe(
      `/clients/${CLIENT_ID}/patient-card?appointmentId=${APPOINTMENT_ID}`,
    );
    expect(screen.getByText('Noch keine Terminzusammenfassungen.')).toBeTruthy();
  });

  it('says when review completed a document and by whom, not only when it was signed', () => {
    const completed: Schemas['ClinicalDocumentStatus'] = {
      ...draft,
      status: 'completed',
      availability: 'available',
      blockers: [],
      signedAt: '2026-11-20T09:20:00.000Z',
      completedAt: '2026-11-23T14:05:00.000Z',
      completedByName: 'Petra Prüferin',
    };
    wrap(
      <SummarySection
        appointment={appointment}
        clinical={{ patientCard: null, summaries: [completed] }}
        canWrite
        held
      />,
    );
    expect(screen.getByText('Abgeschlossen').closest('p')?.textContent).toBe(
      'Abgeschlossen am 23.11.2026, 15:05 von Petra Prüferin',
    );
    expect(screen.getByText('Unterschrieben am 20.11.2026, 10:20')).toBeTruthy();
  });
});
