import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { tKey } from '../../i18n/keys';
import { SUPPORT_CATEGORIES } from '../../../shared/contract/enums';
import type { SupportField } from '../../machines/support.machine';
import { wireSupport } from '../../machines/wiring/support';
import { BusyButton } from '../parts/BusyButton';
import { useRouteMachine } from '../route-actor';

const FIELD_ERRORS: Record<string, string> = {
  value_missing: tKey('shell:support.errors.required'),
  value_too_short: tKey('shell:support.errors.required'),
  value_too_long: tKey('shell:support.errors.tooLong'),
};
const FIELD_ERROR_GENERIC = tKey('shell:support.errors.invalid');

const SEND_ERRORS: Record<string, string> = {
  rate_limited: tKey('shell:support.errors.rateLimited'),
  network_error: tKey('shell:support.errors.network'),
};
const SEND_ERROR_GENERIC = tKey('shell:support.errors.generic');

const CATEGORY_LABELS: Record<(typeof SUPPORT_CATEGORIES)[number], string> = {
  technical: tKey('shell:support.categories.technical'),
  scheduling: tKey('shell:support.categories.scheduling'),
  billing: tKey('shell:support.categories.billing'),
  account: tKey('shell:support.categories.account'),
  feedback: tKey('shell:support.categories.feedback'),
  other: tKey('shell:support.categories.other'),
};

/** `/support`: a support request to the team, confirmed by e-mail. */
export default function SupportPage() {
  const { t } = useTranslation('shell');
  const [state, send] = useRouteMachine(wireSupport);
  const ids = { category: useId(), subject: useId(), message: useId() };
  const busy = state.hasTag('busy');
  const { draft, fieldErrors, error } = state.context;

  if (state.hasTag('sent')) {
    return (
      <article className="support-page">
        <h1>{t('support.title')}</h1>
        <div className="notice notice-success" role="status">
          <h2>{t('support.sentTitle')}</h2>
          <p>{t('support.sentText')}</p>
        </div>
        <button type="button" className="button" onClick={() => send({ type: 'form.reset' })}>
          {t('support.another')}
        </button>
      </article>
    );
  }

  const fieldProps = (field: SupportField) => ({
    id: ids[field],
    name: field,
    value: draft[field],
    disabled: busy || state.hasTag('error'),
    'aria-invalid': fieldErrors[field] ? true : undefined,
    'aria-describedby': fieldErrors[field] ? `${ids[field]}-error` : undefined,
    onChange: (e: { target: { value: string } }) =>
      send({ type: 'form.change', field, value: e.target.value }),
  });
  const fieldError = (field: SupportField) =>
    fieldErrors[field] ? (
      <p id={`${ids[field]}-error`} className="field-error">
        {t(FIELD_ERRORS[fieldErrors[field]] ?? FIELD_ERROR_GENERIC)}
      </p>
    ) : null;

  return (
    <article className="support-page">
      <h1>{t('support.title')}</h1>
      <p className="lead">{t('support.intro')}</p>
      <form
        className="support-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          send({ type: 'form.submit' });
        }}
      >
        <div className="field">
          <label htmlFor={ids.category}>{t('support.category')}</label>
          <select {...fieldProps('category')} required>
            <option value="">{t('support.chooseCategory')}</option>
            {SUPPORT_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {t(CATEGORY_LABELS[c])}
              </option>
            ))}
          </select>
          {fieldError('category')}
        </div>
        <div className="field">
          <label htmlFor={ids.subject}>{t('support.subject')}</label>
          <input {...fieldProps('subject')} maxLength={200} required />
          {fieldError('subject')}
        </div>
        <div className="field">
          <label htmlFor={ids.message}>{t('support.message')}</label>
          <textarea {...fieldProps('message')} rows={8} maxLength={5000} required />
          {fieldError('message')}
        </div>
        {state.hasTag('error') ? (
          <div className="notice notice-error" role="alert">
            <p>{t(SEND_ERRORS[error?.code ?? ''] ?? SEND_ERROR_GENERIC)}</p>
            <div className="form-actions">
              <button
                type="button"
                className="button button-primary"
                onClick={() => send({ type: 'form.retry' })}
              >
                {t('support.retry')}
              </button>
              <button type="button" className="button" onClick={() => send({ type: 'form.edit' })}>
                {t('support.edit')}
              </button>
            </div>
          </div>
        ) : (
          <div className="form-actions">
            <BusyButton
              type="submit"
              busy={busy}
              label={t('support.send')}
              busyLabel={t('support.sending')}
            />
          </div>
        )}
      </form>
    </article>
  );
}
