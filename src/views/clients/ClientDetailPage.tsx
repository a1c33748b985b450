import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { EventButton } from '../parts/EventButton';
import { Link, useParams } from 'wouter';
import { Communications } from '../appointment-detail/AppointmentDetailView';
import { AppointmentsTable } from '../appointments-list/parts';
import { ageOf, formatDate, formatDateTime } from '../staff/format';
import { ActionFailure, DetailFrame, DetailPending } from '../record-detail/DetailFrame';
import { REJECTION_LABELS } from './ClientFormFields';
import { EraseClient } from './EraseClient';
import { wireClientDetail } from '../../machines/wiring/client-detail';
import { useRouteActor } from '../route-actor';
import { useSessionPermission } from '../session-status';
import { AccessLogSection, ClientClinicalSection } from '../clinical/ClinicalSections';
import { ClinicalExport } from '../clinical/ClinicalExport';

/** `/clients/{clientId}`. */
export default function ClientDetailPage() {
  const { clientId } = useParams<{ clientId: string }>();
  return <ClientDetail key={clientId} id={clientId} />;
}

function ClientDetail({ id }: { id: string }) {
  const { t } = useTranslation('staff');
  const readsAccessLog = useSessionPermission('readAccessLog');
  const exportsClinical = useSessionPermission('exportClinical');
  // Sending a sign-in link is for the staff who manage clients' access (not coaches).
  const sendsSignInLinks = useSessionPermission('sendSignInLinks');
  // Clinical content: whoever the session may read it (onboarding managers see the statuses only).
  const clinicalWriter = useSessionPermission('readClinical');
  const actorRef = useRouteActor((effects) => wireClientDetail(effects, readsAccessLog), {
    input: { id },
  });
  const state = useSelector(actorRef, (s) => s);
  const send = actorRef.send;
  const { record: detail, actionError, reminderUnavailable } = state.context;
  const busy = state.hasTag('busy');
  const progress = state.hasTag('loading') ? t('list.loading') : t('appointment.working');

  if (!detail) {
    return (
      <DetailPending
        title={t('client.title')}
        state={state}
        retry={() => send({ type: 'detail.retry' })}
        backHref="/clients"
        backLabel={t('client.backToList')}
      />
    );
  }

  const c = detail.client;
  const age = ageOf(c.yearOfBirth);
  const confirming = state.hasTag('confirmClose');
  const dash = '–';

  return (
    <DetailFrame
      title={
        <>
          {c.firstName} {c.lastName}
        </>
      }
      busy={busy}
      progress={progress}
    >
      <div className="page-actions">
        <Link href={`/clients/${c.id}/edit`} className="button button-primary">
          {t('client.edit')}
        </Link>
        <Link href={`/appointments?clientId=${c.id}&past=true`} className="button">
          {t('client.allAppointments')}
        </Link>
        {c.sessionsClosedOn === null ? (
          <EventButton state={state} send={send} event={{ type: 'sessions.close' }}>
            {t('client.closeSessions')}
          </EventButton>
        ) : (
          <EventButton state={state} send={send} event={{ type: 'sessions.open' }}>
            {t('client.openSessions')}
          </EventButton>
        )}
        {c.hasNotSignedRequiredContract && !reminderUnavailable ? (
          <EventButton state={state} send={send} event={{ type: 'reminder.send' }}>
            {t('client.sendReminder')}
          </EventButton>
        ) : null}
        {sendsSignInLinks && c.email ? (
          <EventButton state={state} send={send} event={{ type: 'signInLink.send' }}>
            {t('client.sendSignInLink')}
          </EventButton>
        ) : null}
      </div>
      {sendsSignInLinks && c.email ? (
        <p className="field-hint">{t('client.signInLinkHint', { email: c.email })}</p>
      ) : null}
      <EraseClient client={c} />
      {c.hasNotSignedRequiredContract && c.contractReminderSentAt ? (
        <p>{t('client.reminderLastSent', { date: formatDateTime(c.contractReminderSentAt) })}</p>
      ) : null}
      {reminderUnavailable ? (
        <p className="notice" role="status">
          {t('client.reminderUnavailable')}
        </p>
      ) : null}
      <ActionFailure error={actionError} />
      {confirming ? (
        <div className="confirm-box" role="alertdialog" aria-labelledby="close-question">
          <p id="close-question">
            <strong>{t('client.closeQuestion', { name: `${c.firstName} ${c.lastName}` })}</strong>
          </p>
          <div className="form-actions">
            <button
              type="button"
              className="button button-danger"
              disabled={state.hasTag('closing')}
              onClick={() => send({ type: 'close.confirm' })}
            >
              {t('client.closeConfirm')}
            </button>
            <button
              type="button"
              className="button"
              disabled={state.hasTag('closing')}
              onClick={() => send({ type: 'close.abort' })}
            >
              {t('cancel.abort')}
            </button>
          </div>
        </div>
      ) : null}

      <section className="detail-section" aria-labelledby="client-details">
        <h2 id="client-details">{t('client.details')}</h2>
        <dl className="details">
          <dt>{t('client.age')}</dt>
          <dd>{age === null ? dash : t('client.ageValue', { age, year: c.yearOfBirth })}</dd>
          <dt>{t('clientForm.clientType')}</dt>
          <dd>
            {c.clientType === 'relative' ? t('clientTypes.relative') : t('clientTypes.self')}
            {c.contactPerson ? ` (${c.contactPerson.firstName} ${c.contactPerson.lastName})` : ''}
          </dd>
          <dt>{t('clientForm.email')}</dt>
          <dd>
            {c.email ?? dash}
            {c.emailBounceReason ? (
              <>
                {' '}
                <span className="badge badge-cancelled" title={formatDate(c.emailBouncedAt)}>
                  {t(`client.emailBounced.${c.emailBounceReason}`)}
                </span>
              </>
            ) : null}
          </dd>
          <dt>{t('clientForm.telephone')}</dt>
          <dd>{[c.telephone, c.additionalTelephoneNumbers].filter(Boolean).join(', ') || dash}</dd>
          <dt>{t('client.address')}</dt>
          <dd>
            {[c.street, [c.postalCode, c.city].filter(Boolean).join(' '), c.country]
              .filter(Boolean)
              .join(', ') || dash}
          </dd>
          <dt>{t('client.coach')}</dt>
          <dd>
            {c.coachedBy ? `${c.coachedBy.firstName} ${c.coachedBy.lastName}` : t('client.noCoach')}
          </dd>
          <dt>{t('clientForm.insurer')}</dt>
          <dd>{[c.insurer, c.insurerCode].filter(Boolean).join(' · ') || dash}</dd>
          <dt>{t('clientForm.campaign')}</dt>
          <dd>{c.campaign ?? dash}</dd>
          <dt>{t('client.sessions')}</dt>
          <dd>
            {c.sessionsClosedOn
              ? t('clients.sessionsClosedOn', { date: formatDate(c.sessionsClosedOn) })
              : t('clients.sessionsOpen')}
          </dd>
          <dt>{t('client.contract')}</dt>
          <dd>
            {c.hasNotSignedRequiredContract
              ? t('client.contractMissing')
              : t('client.contractSigned')}
          </dd>
          <dt>{t('clientForm.research')}</dt>
          <dd>{c.wantsToProvideRecordingsForResearch ? t('list.yes') : t('list.no')}</dd>
          <dt>{t('clientForm.notifyViaSms')}</dt>
          <dd>{c.notifyViaSms ? t('list.yes') : t('list.no')}</dd>
          <dt>{t('clientForm.rejectionReasonType')}</dt>
          <dd>
            {c.rejectionReasonType
              ? t(REJECTION_LABELS[c.rejectionReasonType])
              : t('clientForm.noRejection')}
            {c.rejectionReasonNotes ? ` – ${c.rejectionReasonNotes}` : ''}
          </dd>
          {/* Clinical fields: the server leaves them out for roles that may not read them. */}
          {'diagnosis' in c ? (
            <>
              <dt>{t('clientForm.diagnosis')}</dt>
              <dd>
                {c.diagnosis ?? dash}
                {c.initialDiagnosis
                  ? ` (${t('client.since', { date: formatDate(c.initialDiagnosis) })})`
                  : ''}
              </dd>
            </>
          ) : null}
          {'mentalStressIndicator' in c ? (
            <>
              <dt>{t('clientForm.mentalStressIndicator')}</dt>
              <dd>{c.mentalStressIndicator ?? dash}</dd>
            </>
          ) : null}
          {'notes' in c ? (
            <>
              <dt>{t('clientForm.notes')}</dt>
              <dd className="pre-wrap">{c.notes ?? dash}</dd>
            </>
          ) : null}
          <dt>{t('clients.columns.createdAt')}</dt>
          <dd>{formatDateTime(c.createdAt)}</dd>
        </dl>
      </section>

      <section className="detail-section" aria-labelledby="client-appointments">
        <h2 id="client-appointments">{t('client.appointments')}</h2>
        {detail.appointments === null ? (
          <p className="notice notice-error">{t('client.appointmentsUnavailable')}</p>
        ) : detail.appointments.rows.length === 0 ? (
          <p>{t('client.noAppointments')}</p>
        ) : (
          <AppointmentsTable rows={detail.appointments.rows} caption={t('client.appointments')} />
        )}
      </section>
      <ClientClinicalSection
        clientId={c.id}
        clinical={detail.clinical}
        canWrite={clinicalWriter}
        startAt={latestHeld(detail.appointments?.rows ?? [])}
      />
      {exportsClinical && (detail.clinical?.patientCard || detail.clinical?.summaries.length) ? (
        <ClinicalExport clientId={c.id} name={`${c.firstName} ${c.lastName}`} />
      ) : null}
      {readsAccessLog ? <AccessLogSection log={detail.accessLog} /> : null}
      <section className="detail-section" aria-labelledby="client-communications">
        <h2 id="client-communications">{t('communications.title')}</h2>
        <Communications items={detail.communications} />
      </section>
    </DetailFrame>
  );
}

/** The client's latest held appointment (started, not cancelled or a no-show): where a card starts. */
function latestHeld(
  rows: ReadonlyArray<{
    id: string;
    startDate: string;
    cancelledAt: string | null;
    noShow: boolean;
    isProvisional: boolean;
  }>,
) {
  const now = Date.now();
  const held = rows.filter(
    (r) =>
      r.cancelledAt === null && !r.noShow && !r.isProvisional && Date.parse(r.startDate) <= now,
  );
  held.sort((a, b) => Date.parse(b.startDate) - Date.parse(a.startDate));
  return held[0]?.id ?? null;
}
