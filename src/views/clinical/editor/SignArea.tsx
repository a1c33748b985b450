import { useTranslation } from 'react-i18next';
import { errorKey } from '../../staff/ListParts';
import type { EditorState, Send } from './types';

export function SignArea({
  state,
  send,
  blocked,
}: {
  state: EditorState;
  send: Send;
  blocked: boolean;
}) {
  const { t } = useTranslation('clinical');
  const { t: ts } = useTranslation('staff');
  const error = state.context.error;
  const waiting = state.context.signRequested;
  if (state.hasTag('confirmingSign') || state.hasTag('signing')) {
    const signing = state.hasTag('signing');
    return (
      <div
        className="confirm-box no-print"
        role="alertdialog"
        aria-labelledby="sign-question"
        aria-describedby="sign-effect"
      >
        <p id="sign-question">
          <strong>{t('sign.question')}</strong>
        </p>
        <p id="sign-effect">{t('sign.effect')}</p>
        <div className="form-actions">
          <button
            type="button"
            className="button button-primary"
            disabled={signing}
            onClick={() => send({ type: 'sign.confirm' })}
          >
            {signing ? t('sign.signing') : t('sign.confirm')}
          </button>
          <button
            type="button"
            className="button"
            disabled={signing}
            onClick={() => send({ type: 'sign.abort' })}
          >
            {t('sign.abort')}
          </button>
        </div>
      </div>
    );
  }
  return (
    <div className="form-actions no-print">
      <button
        type="button"
        className="button button-primary"
        // Blockers are the last save's: while the text is unsaved the click saves it and asks after.
        disabled={(blocked && !state.hasTag('unsaved')) || !state.can({ type: 'editor.sign' })}
        onClick={() => send({ type: 'editor.sign' })}
      >
        {t('sign.button')}
      </button>
      <span className="field-hint" role={waiting ? 'status' : undefined}>
        {waiting ? t('sign.afterSave') : blocked ? t('sign.blockedHint') : t('sign.hint')}
      </span>
      {error && state.hasTag('saved') ? (
        <p className="field-error" role="alert">
          {t('sign.failed', { reason: ts(errorKey(error)) })}
        </p>
      ) : null}
    </div>
  );
}
