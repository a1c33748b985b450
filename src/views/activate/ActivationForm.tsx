import { useSelector } from '@xstate/react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { usePageServices } from '../page-services';
import { tKey } from '../../i18n/keys';

const ERRORS: Record<string, string> = {
  activation_code_invalid: tKey('shell:activation.errors.invalid'),
  validation_failed: tKey('shell:activation.errors.invalid'),
  activation_code_used: tKey('shell:activation.errors.used'),
  account_is_client: tKey('shell:activation.errors.client'),
  rate_limited: tKey('shell:activation.errors.rateLimited'),
  network_error: tKey('shell:activation.errors.network'),
};
const GENERIC_ERROR = tKey('shell:activation.errors.generic');

/** The activation-code form; the session machine sends the code and refreshes the session. */
export function ActivationForm() {
  const { t } = useTranslation('shell');
  const { session } = usePageServices();
  const busy = useSelector(session, (s) => s.hasTag('busy'));
  const error = useSelector(session, (s) => (s.hasTag('activationError') ? s.context.error : null));
  const inputId = useId();
  const errorId = useId();
  return (
    <form
      className="activation-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const code = String(new FormData(e.currentTarget).get('activationCode') ?? '').trim();
        session.send({ type: 'activation.submit', code });
      }}
    >
      <label htmlFor={inputId}>{t('activation.codeLabel')}</label>
      <input
        id={inputId}
        name="activationCode"
        autoComplete="one-time-code"
        autoCapitalize="characters"
        spellCheck={false}
        required
        maxLength={64}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
      />
      {error && (
        <p id={errorId} className="field-error" role="alert">
          {t(ERRORS[error.code] ?? GENERIC_ERROR)}
        </p>
      )}
      <button type="submit" className="button button-primary" disabled={busy} aria-busy={busy}>
        {busy ? t('activation.submitting') : t('activation.submit')}
      </button>
    </form>
  );
}
