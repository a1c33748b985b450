import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { RulesActor } from '../../machines/billing-rules.machine';
import { wireClientPicker } from '../../machines/wiring/client-picker';
import { APPOINTMENT_TYPE_LABELS } from '../appointments-list/parts';
import { formatDate, formatEuro, formatTime } from '../staff/format';
import { RecordPickerField } from '../staff/RecordPickerField';
import { failedText } from './rule-text';

const PREVIEW_ERRORS = [
  'invalid_appointment_id',
  'not_found',
  'appointment_not_billable',
  'network_error',
];

/** Which rule would bill one appointment, and why each rule above it did not. */
export function RulePreview({ actorRef }: { actorRef: RulesActor }) {
  const { t } = useTranslation(['billingRules', 'staff']);
  const appointmentId = useSelector(actorRef, (s) => s.context.appointmentId);
  const [text, setText] = useState(appointmentId);
  const byIdOpen = useSelector(actorRef, (s) => s.context.openedForAppointment);
  const preview = useSelector(actorRef, (s) =>
    s.hasTag('previewShown') ? s.context.preview : null,
  );
  const error = useSelector(actorRef, (s) =>
    s.hasTag('previewError') ? s.context.previewError : null,
  );
  const running = useSelector(actorRef, (s) => s.hasTag('previewing'));
  const canClear = useSelector(actorRef, (s) => s.can({ type: 'preview.clear' }));
  const errorCode = error && PREVIEW_ERRORS.includes(error.code) ? error.code : 'generic';

  return (
    <section className="detail-section rule-preview" aria-labelledby="rule-preview-title">
      <h2 id="rule-preview-title">{t('preview.title')}</h2>
      <p className="field-hint" id="rule-preview-hint">
        {t('preview.hint')}
      </p>
      <RecordPickerField
        name="clientId"
        label={t('preview.client')}
        value={undefined}
        wire={wireClientPicker}
        onChange={(client) =>
          actorRef.send(client ? { type: 'client.choose', client } : { type: 'client.clear' })
        }
      />
      <ClientAppointments actorRef={actorRef} />
      <details className="rule-preview-by-id" open={byIdOpen}>
        <summary>{t('preview.byId')}</summary>
        <p className="field-hint" id="rule-preview-id-hint">
          {t('preview.byIdHint')}
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
            aria-describedby="rule-preview-id-hint"
            autoComplete="off"
            spellCheck={false}
          />
          <div className="form-actions">
            <button
              type="submit"
              className="button button-primary"
              disabled={running}
              aria-busy={running}
            >
              {t('preview.submit')}
            </button>
            {canClear ? (
              <button
                type="button"
                className="button"
                onClick={() => actorRef.send({ type: 'preview.clear' })}
              >
                {t('preview.clear')}
              </button>
            ) : null}
          </div>
        </form>
      </details>
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
              <Link href={`/appointments/${preview.appointmentId}`}>
                {t('preview.appointmentLink', {
                  client: `${preview.appointment.client.firstName} ${preview.appointment.client.lastName}`,
                  when: `${formatDate(preview.appointment.startDate)}, ${formatTime(preview.appointment.startDate)}`,
                  type: t(APPOINTMENT_TYPE_LABELS[preview.appointment.appointmentType]),
                })}
              </Link>{' '}
              · {t('preview.occasion', { occasion: t(`preview.occasions.${preview.occasion}`) })}
            </p>
            {preview.matchedRuleId !== null ? (
              <p className="rule-preview-amount">
                <strong>
                  {t('preview.amount', { amount: formatEuro(preview.item.amountCents) })}
                </strong>
                <br />
                {t('preview.amountDetails', {
                  description: preview.item.description,
                  payer: t(`payerKinds.${preview.item.payerKind}`),
                  vat:
                    preview.item.vatTreatment === 'exempt'
                      ? t('preview.vatExempt')
                      : t('preview.vatStandard', { rate: preview.item.vatRatePercent }),
                })}
              </p>
            ) : null}
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
            {preview.matchedRuleId === null ? (
              <p className="notice notice-error">{t('preview.noMatch')}</p>
            ) : null}
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

/** The chosen client's appointments, newest first; choosing one previews it. */
function ClientAppointments({ actorRef }: { actorRef: RulesActor }) {
  const { t } = useTranslation(['billingRules', 'staff']);
  const client = useSelector(actorRef, (s) => s.context.client);
  const appointments = useSelector(actorRef, (s) =>
    s.hasTag('appointmentsShown') ? s.context.appointments : null,
  );
  const loading = useSelector(actorRef, (s) => s.hasTag('appointmentsLoading'));
  const failed = useSelector(actorRef, (s) => s.hasTag('appointmentsError'));
  const current = useSelector(actorRef, (s) => s.context.appointmentId);
  if (!client) return null;

  return (
    <div className="rule-preview-appointments" aria-live="polite">
      {loading ? (
        <p className="list-progress" role="status">
          <span className="spinner" aria-hidden="true" />
          {t('preview.appointments.loading')}
        </p>
      ) : null}
      {failed ? (
        <p className="notice notice-error" role="alert">
          {t('preview.appointments.failed')}{' '}
          <button
            type="button"
            className="button-link"
            onClick={() => actorRef.send({ type: 'appointments.retry' })}
          >
            {t('preview.appointments.retry')}
          </button>
        </p>
      ) : null}
      {appointments?.length === 0 ? (
        <p className="list-empty">{t('preview.appointments.empty', { name: client.label })}</p>
      ) : null}
      {appointments && appointments.length > 0 ? (
        <ul
          className="plain-list rule-preview-choices"
          aria-label={t('preview.appointments.label', { name: client.label })}
        >
          {appointments.map((a) => (
            <li key={a.id}>
              <button
                type="button"
                className="button-link"
                aria-pressed={a.id === current}
                onClick={() => actorRef.send({ type: 'preview.request', appointmentId: a.id })}
              >
                {[
                  `${formatDate(a.startDate)}, ${formatTime(a.startDate)}`,
                  t(APPOINTMENT_TYPE_LABELS[a.appointmentType]),
                  t('preview.appointments.coach', {
                    name: `${a.coach.firstName} ${a.coach.lastName}`,
                  }),
                  ...(a.cancelledAt ? [t('preview.appointments.cancelled')] : []),
                  ...(a.noShow ? [t('preview.appointments.noShow')] : []),
                ].join(' · ')}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
