import { fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createI18n } from '../../src/i18n';
import { PatientCardFields } from '../../src/views/clinical/PatientCardFields';
import { SummaryFields } from '../../src/views/clinical/SummaryFields';
import { readLocales } from '../support/locales';

/** The clinical templates' text areas: labelled, limited, read-only when signed, each change named by its field. */

let i18n: Awaited<ReturnType<typeof createI18n>>['i18n'];
beforeAll(async () => {
  const setup = createI18n({ lng: 'de', resources: readLocales('de', 'en'), debug: false });
  await setup.ready;
  i18n = setup.i18n;
});

describe('clinical template text areas', () => {
  it('the patient card: its text by label, at most 5000 characters, a change names the field', () => {
    const change = vi.fn();
    render(
      <I18nextProvider i18n={i18n}>
        <PatientCardFields
          content={{ reason: 'Schlafprobleme' }}
          readOnly={false}
          change={change}
        />
      </I18nextProvider>,
    );
    const reason = screen.getByLabelText('Anlass der Begleitung') as HTMLTextAreaElement;
    expect(reason.value).toBe('Schlafprobleme');
    expect(reason.maxLength).toBe(5000);
    expect(reason.rows).toBe(3);
    fireEvent.change(reason, { target: { value: 'Stress' } });
    expect(change).toHaveBeenCalledWith('reason', 'Stress');
  });

  it('the summary: read-only when signed, and a change names its field', () => {
    const change = vi.fn();
    const { rerender } = render(
      <I18nextProvider i18n={i18n}>
        <SummaryFields content={{ homework: 'Tagebuch' }} readOnly={true} change={change} />
      </I18nextProvider>,
    );
    const homework = screen.getByLabelText('Hausaufgaben') as HTMLTextAreaElement;
    expect(homework.value).toBe('Tagebuch');
    expect(homework.readOnly).toBe(true);
    expect(homework.rows).toBe(4);
    rerender(
      <I18nextProvider i18n={i18n}>
        <SummaryFields content={{ homework: 'Tagebuch' }} readOnly={false} change={change} />
      </I18nextProvider>,
    );
    fireEvent.change(screen.getByLabelText('Hausaufgaben'), { target: { value: 'Spaziergang' } });
    expect(change).toHaveBeenCalledWith('homework', 'Spaziergang');
  });
});
