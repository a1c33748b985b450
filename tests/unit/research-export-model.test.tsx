import { act, render, screen } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { beforeAll, expect } from 'vitest';
import { createI18n } from '../../src/i18n';
import {
  researchExportMachine,
  type ResearchExportSummary,
} from '../../src/machines/research-export.machine';
import { ResearchExportView } from '../../src/views/admin/ResearchExportPage';
import { readLocales } from '../support/locales';
import { describeModel, done, failed, type ModelTest, startMachine } from '../support/model';

/**
 * Model-based test of `/admin/research-export`: paths from the real machine
 * (the consent count, then the download), played against the rendered page with clicks; each
 * state is checked in what the page shows and in the calls that went out.
 */
let i18n: Awaited<ReturnType<typeof createI18n>>['i18n'];
beforeAll(async () => {
  const setup = createI18n({ lng: 'de', resources: readLocales('de', 'en'), debug: false });
  await setup.ready;
  i18n = setup.i18n;
});

const SUMMARY: ResearchExportSummary = {
  participants: 1234,
  appointments: 9876,
  keyConfigured: true,
};
const NO_KEY: ResearchExportSummary = { participants: 3, appointments: 7, keyConfigured: false };
const NETWORK = { code: 'network_error' };
const KEY_MISSING = { status: 409, code: 'research_key_missing' };

interface PageRun {
  user: UserEvent;
}

const startPage = () => {
  const started = startMachine(researchExportMachine);
  render(
    <I18nextProvider i18n={i18n}>
      <ResearchExportView actorRef={started.actor} />
    </I18nextProvider>,
  );
  return Object.assign(started, { user: userEvent.setup() } satisfies PageRun);
};

const button = (name: string) => screen.getByRole('button', { name });
const downloadButton = () =>
  screen.getByRole('button', { name: /ZIP herunterladen|Wird erstellt/ });
const alertText = () => screen.queryByRole('alert')?.textContent ?? '';

/** The counts as the page shows them (German number format). */
function expectCounts(summary: ResearchExportSummary) {
  const term = (label: string) => screen.getByText(label).nextElementSibling?.textContent;
  expect(term('Klient:innen mit Einwilligung zur Forschung')).toBe(
    summary.participants.toLocaleString('de-DE'),
  );
  expect(term('Ihre Termine')).toBe(summary.appointments.toLocaleString('de-DE'));
}

const model: ModelTest<typeof researchExportMachine, ReturnType<typeof startPage>> = {
  machine: researchExportMachine,
  plans: [
    {
      // With or without the key the page offers different things.
      serialize: (s) => s.context.summary?.keyConfigured ?? null,
      events: [
        done('loadResearchSummary', SUMMARY),
        done('loadResearchSummary', NO_KEY),
        failed('loadResearchSummary', NETWORK),
        { type: 'research.retry' },
        { type: 'research.refresh' },
        { type: 'research.download' },
        done('downloadResearchExport', null),
        failed('downloadResearchExport', KEY_MISSING),
      ],
      walks: [
        // A failed load is tried again; a failed download too, and a finished one may be repeated.
        [
          failed('loadResearchSummary', NETWORK),
          { type: 'research.retry' },
          done('loadResearchSummary', SUMMARY),
          { type: 'research.download' },
          failed('downloadResearchExport', KEY_MISSING),
          { type: 'research.download' },
          done('downloadResearchExport', null),
          { type: 'research.download' },
          done('downloadResearchExport', null),
          { type: 'research.refresh' },
          done('loadResearchSummary', NO_KEY),
        ],
      ],
    },
  ],
  start: startPage,
  wrap: (step) => act(step),
  events: {
    'research.retry': (_, r) => r.user.click(button('Erneut versuchen')),
    'research.refresh': (_, r) => r.user.click(button('Zahlen aktualisieren')),
    'research.download': (_, r) => r.user.click(button('ZIP herunterladen')),
  },
  states: {
    'researchExport.loading': (s, run) => {
      screen.getByText('Wird geladen …');
      expect(screen.queryByRole('button', { name: 'ZIP herunterladen' })).toBeNull();
      expect(run.fakes.loadResearchSummary!.pending()).toBe(1);
      expect(s.can({ type: 'research.download' })).toBe(false);
    },
    'researchExport.loadFailed': () => {
      expect(alertText()).toContain('Keine Verbindung zum Server');
      button('Erneut versuchen');
      expect(screen.queryByText('Klient:innen mit Einwilligung zur Forschung')).toBeNull();
    },
    'researchExport.ready': (s) => {
      const summary = s.context.summary!;
      expectCounts(summary);
      // The download only with the pseudonym key on the server; then the page says why not.
      expect(downloadButton().hasAttribute('disabled')).toBe(!summary.keyConfigured);
      expect(screen.queryByText(/RESEARCH_PSEUDONYM_KEY/) !== null).toBe(!summary.keyConfigured);
      expect(screen.queryByRole('alert')).toBeNull();
      expect(button('Zahlen aktualisieren').hasAttribute('disabled')).toBe(false);
    },
    'researchExport.downloading': (s, run) => {
      expectCounts(s.context.summary!);
      expect(downloadButton().textContent).toBe('Wird erstellt …');
      expect(downloadButton().hasAttribute('disabled')).toBe(true);
      expect(button('Zahlen aktualisieren').hasAttribute('disabled')).toBe(true);
      screen.getByText(/Der Export wird erstellt und heruntergeladen/);
      expect(run.fakes.downloadResearchExport!.pending()).toBe(1);
    },
    'researchExport.done': (s, run) => {
      expectCounts(s.context.summary!);
      screen.getByText('Der Export wurde heruntergeladen.');
      expect(downloadButton().hasAttribute('disabled')).toBe(false);
      expect(run.fakes.downloadResearchExport!.calls.length).toBeGreaterThanOrEqual(1);
    },
    'researchExport.failed': (s) => {
      expectCounts(s.context.summary!);
      expect(alertText()).toContain(
        'Der Schlüssel für die Pseudonyme ist auf dem Server nicht eingerichtet',
      );
      expect(screen.queryByText('Der Export wurde heruntergeladen.')).toBeNull();
      // Tried again from here.
      expect(downloadButton().hasAttribute('disabled')).toBe(false);
    },
  },
};

describeModel('research export machine, model-based against its page', model);
