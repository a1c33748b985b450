import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { RulesActor } from '../../machines/billing-rules.machine';
import { failedText } from './rule-text';

const PREVIEW_ERRORS = ['invalid_appointment_id', 'not_found', 'appointment_not_billable', 'network_error'];

/** Which rule would bill one appointment, and why each rule above it did not. */
export function RulePreview({ actorRef }: { actorRef: RulesActor }) {
  const { t } = useTranslation(['billingRules', 'staff']);
  const appointmentId = useSelector(actorRef, (s) => s.context.appointmentId);
  const [text, setText] = useState(appointmentId);
  const preview = useSelector(actorRef, (s) => (s.hasTag('previewShown') ? s.context.preview : null));
  const error = useSelector(actorRef, (s) => (s.hasTag('previewError') ? s.context.previewError : null));
  const running = useSelector(actorRef, (s) => s.hasTag('previewing'));
  const canClear = useSelector(actorRef, (s) => s.can({ type: 'preview.clear' }));
  const errorCode = error && PREVIEW_ERRORS.includes(error.code) ? error.code : 'generic';

  return (
    <section className="detail-section rule-preview" aria-labelledby="rule-preview-title">
      <h2 id="rule-preview-title">{t('preview.title')}</h2>
      <p className="field-hint" id="rule-preview-hint">
        {t('preview.hint')}
      </p>
      <form
        className="rule-preview-form"
        onSubmit={(e) => {
          e.preventDefault();
          actorRef.send({ type: 'preview.request', appointmentId: text || appointmentId });
        }}
      >
        <label htmlFor="rule-preview-id">{t('preview.appointmentId')}</label>
        <input
          id="rule-preview-id"
          name="appointmentId"
          value={text}
          onChange={(e) => setText(e.target.value)}
          aria-describedby="rule-preview-hint"
          autoComplete="off"
          spellCheck={false}
        />
        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={running} aria-busy={running}>
            {t('preview.submit')}
          </button>
          {canClear ? (
            <button type="button" className="button" onClick={() => actorRef.send({ type: 'preview.clear' })}>
              {t('preview.clear')}
            </button>
          ) : null}
        </div>
      </form>
      <div aria-live="polite">
        {running ? (
          <p className="list-progress" role="status">
            <span className="spinner" aria-hidden="true" />
            {t('preview.running')}
          </p>
        ) : null}
        {error ? (
          <p className="notice notice-error" role="alert">
            {t(`preview.errors.${errorCode}`)}
          </p>
        ) : null}
        {preview ? (
          <div className="rule-preview-result" aria-label={t('preview.resultLabel')} role="region">
            <p>
              <Link href={`/appointments/${preview.appointmentId}`}>{preview.appointmentId}</Link> ·{' '}
              {t('preview.occasion', { occasion: t(`preview.occasions.${preview.occasion}`) })}
            </p>
            <ol className="rule-preview-lines">
              {preview.rules.map((line) => (
                <li key={line.ruleId} className={`preview-${line.outcome}`}>
                  <strong>{line.name}</strong>:{' '}
                  {line.outcome === 'matched'
                    ? t('preview.matched')
                    : line.outcome === 'inactive'
                      ? t('preview.inactiveRule')
                      : t('preview.notMatched', { criteria: failedText(t, line.failedCriteria) })}
                </li>
              ))}
            </ol>
            {preview.matchedRuleId === null ? <p className="notice notice-error">{t('preview.noMatch')}</p> : null}
            {preview.validationErrors.length > 0 ? (
              <div className="notice notice-error">
                <p>{t('preview.validationTitle')}</p>
                <ul>
                  {preview.validationErrors.map((v) => (
                    <li key={v.code}>{v.message}</li>
                  ))}
                </ul>
              </div>
            ) : null}
          </div>
        ) : null}
      </div>
    </section>
  );
}
