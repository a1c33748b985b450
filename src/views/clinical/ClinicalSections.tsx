import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { components } from '../../../shared/contract/product';
import { tKey } from '../../i18n/keys';
import { formatDateTime } from '../staff/format';
import { STATUS_LABELS } from './labels';
import './clinical.css';

/**
 * The clinical parts of the detail pages, statuses only: what the appointment's
 * summary and the client's card are, what blocks them, and the way into the editor for those
 * who may read content (`canWrite`: the coach and admins, not onboarding managers).
 */

type Schemas = components['schemas'];
type DocStatus = Schemas['ClinicalDocumentStatus'];
type Appointment = Schemas['Appointment'];

/**
 * The status with its time: a completed document says when review completed it and by whom
 * (the signing time below it), a signed one when it was signed.
 */
function StatusLine({ doc }: { doc: DocStatus }) {
  const { t } = useTranslation('clinical');
  const completed = doc.status === 'completed' && doc.completedAt ? doc.completedAt : null;
  const when = completed
    ? doc.completedByName
      ? t('status.completedBy', { when: formatDateTime(completed), who: doc.completedByName })
      : t('status.signedAt', { when: formatDateTime(completed) })
    : doc.signedAt
      ? t('status.signedAt', { when: formatDateTime(doc.signedAt) })
      : '';
  return (
    <>
      <p>
        <span className={`status-badge status-${doc.status}`}>{t(STATUS_LABELS[doc.status])}</span>
        {when ? ` ${when}` : ''}
      </p>
      {completed && doc.signedAt ? (
        <p className="field-hint">{t('status.signedOn', { when: formatDateTime(doc.signedAt) })}</p>
      ) : null}
      {doc.blockers.length > 0 ? (
        <ul aria-label={t('editor.blockersTitle')}>
          {doc.blockers.map((b) => (
            <li key={b.code}>{b.message}</li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

/** "Terminzusammenfassung" on the appointment page. */
export function SummarySection({
  appointment,
  clinical,
  canWrite,
  held,
}: {
  appointment: Appointment;
  clinical: Schemas['ClientClinicalStatus'] | null | undefined;
  canWrite: boolean;
  /** Started, not cancelled, not a no-show: only then is there something to summarise. */
  held: boolean;
}) {
  const { t } = useTranslation('clinical');
  const summary = clinical?.summaries.find((s) => s.appointmentId === appointment.id) ?? null;
  const href = `/appointments/${appointment.id}/summary`;
  return (
    <section className="detail-section" aria-labelledby="summary-heading">
      <h2 id="summary-heading">{t('summary.title')}</h2>
      {clinical === null || clinical === undefined ? (
        <p className="notice">{t('status.unavailable')}</p>
      ) : summary ? (
        <StatusLine doc={summary} />
      ) : (
        <p>{held ? t('summary.none') : t('summary.notYet')}</p>
      )}
      {canWrite && (summary || held) ? (
        <p>
          <Link href={href} className={summary ? 'button' : 'button button-primary'}>
            {summary
              ? summary.status === 'new'
                ? t('summary.continue')
                : t('summary.open')
              : t('summary.write')}
          </Link>
        </p>
      ) : null}
      {!canWrite && summary ? <p className="field-hint">{t('status.contentHidden')}</p> : null}
    </section>
  );
}

/** The patient card's status and the client's summaries on the client page. */
export function ClientClinicalSection({
  clientId,
  clinical,
  canWrite,
  startAt,
}: {
  clientId: string;
  clinical: Schemas['ClientClinicalStatus'] | null | undefined;
  canWrite: boolean;
  /** The latest held appointment, where a new card starts; null: none yet. */
  startAt: string | null;
}) {
  const { t } = useTranslation('clinical');
  if (!clinical) {
    return (
      <section className="detail-section" aria-labelledby="card-heading">
        <h2 id="card-heading">{t('card.title')}</h2>
        <p className="notice">{t('status.unavailable')}</p>
      </section>
    );
  }
  const card = clinical.patientCard;
  const cardHref = `/clients/${clientId}/patient-card${card || !startAt ? '' : `?appointmentId=${startAt}`}`;
  return (
    <>
      <section className="detail-section" aria-labelledby="card-heading">
        <h2 id="card-heading">{t('card.title')}</h2>
        {card ? (
          <StatusLine doc={card} />
        ) : (
          <p>{startAt ? t('card.none') : t('card.noneNoAppointment')}</p>
        )}
        {canWrite && (card || startAt) ? (
          <p>
            <Link href={cardHref} className="button">
              {card ? t('card.open') : t('card.create')}
            </Link>
          </p>
        ) : null}
        {!canWrite && card ? <p className="field-hint">{t('status.contentHidden')}</p> : null}
      </section>
      <section className="detail-section" aria-labelledby="summaries-heading">
        <h2 id="summaries-heading">{t('summaries.title')}</h2>
        {clinical.summaries.length === 0 ? (
          <p>{t('summaries.none')}</p>
        ) : (
          <div className="table-scroll">
            <table className="staff-table">
              <caption className="visually-hidden">{t('summaries.title')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('summaries.appointment')}</th>
                  <th scope="col">{t('summaries.status')}</th>
                  <th scope="col">{t('summaries.blockers')}</th>
                </tr>
              </thead>
              <tbody>
                {clinical.summaries.map((s) => (
                  <tr key={s.id}>
                    <td>
                      <Link
                        href={
                          canWrite
                            ? `/appointments/${s.appointmentId}/summary`
                            : `/appointments/${s.appointmentId}`
                        }
                      >
                        {s.appointmentStartDate
                          ? formatDateTime(s.appointmentStartDate)
                          : t('summaries.appointmentGone')}
                      </Link>
                    </td>
                    <td>{t(STATUS_LABELS[s.status])}</td>
                    <td>{s.blockers.map((b) => b.message).join(' ') || '–'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}

const DOCUMENT_TYPES = {
  summary: tKey('clinical:accessLog.types.summary'),
  patient_card: tKey('clinical:accessLog.types.patient_card'),
} as const;

/** "Zugriffsprotokoll": who read which clinical document, newest first (admins). */
export function AccessLogSection({
  log,
}: {
  log: Schemas['ClinicalAccessLogList'] | null | undefined;
}) {
  const { t } = useTranslation('clinical');
  return (
    <section className="detail-section" aria-labelledby="access-log-heading">
      <h2 id="access-log-heading">{t('accessLog.title')}</h2>
      {!log ? (
        <p className="notice">{t('accessLog.unavailable')}</p>
      ) : log.entries.length === 0 ? (
        <p>{t('accessLog.none')}</p>
      ) : (
        <div className="table-scroll">
          <table className="staff-table">
            <caption className="visually-hidden">{t('accessLog.title')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('accessLog.when')}</th>
                <th scope="col">{t('accessLog.who')}</th>
                <th scope="col">{t('accessLog.document')}</th>
              </tr>
            </thead>
            <tbody>
              {log.entries.map((e) => (
                <tr key={e.id}>
                  <td>{formatDateTime(e.at)}</td>
                  <td>{e.user ? e.user.email : t('accessLog.unknownUser')}</td>
                  <td>
                    {t(DOCUMENT_TYPES[e.documentType])} <code>{e.documentId.slice(0, 8)}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {log && log.itemCount > log.entries.length ? (
        <p className="field-hint">{t('accessLog.more', { count: log.itemCount })}</p>
      ) : null}
    </section>
  );
}
