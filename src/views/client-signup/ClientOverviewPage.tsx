import { useTranslation } from 'react-i18next';
import { Link, Redirect } from 'wouter';
import { CLIENT_DOCUMENTS, CLIENT_SIGN_IN } from '../../lib/client-pages';
import { useSessionStatus } from '../session-status';
import { wireClientAppointments } from '../../machines/wiring/client-appointments';
import { useRouteMachine } from '../route-actor';
import { AppointmentFacts, ClientGate, ClientPage, ErrorNotice, LinkNotice } from './parts';

/**
 * `/mein-termin` ("Mein Termin"): the signed-in client's upcoming appointment with reschedule
 * and cancel, and "Beitreten" while its video room is open; or the way to book one. Signed
 * out, the client sign-in.
 */
export default function ClientOverviewPage() {
  const { t } = useTranslation('client');
  // Signed out (also right after "Abmelden" here): the client sign-in, which comes back here.
  if (useSessionStatus().kind === 'signedOut') return <Redirect to={CLIENT_SIGN_IN} replace />;
  return (
    <ClientPage title={t('login.overviewTitle')}>
      <ClientGate>
        <Upcoming />
        <p className="client-documents-link">
          <Link href={CLIENT_DOCUMENTS}>{t('documents.link')}</Link>
        </p>
      </ClientGate>
    </ClientPage>
  );
}

function Upcoming() {
  const { t } = useTranslation('client');
  const [state, send] = useRouteMachine(wireClientAppointments);
  if (state.hasTag('loading')) return <p role="status">{t('login.loading')}</p>;
  if (state.hasTag('loadError')) {
    return (
      <ErrorNotice
        code={state.context.error?.code ?? 'unknown'}
        onRetry={() => send({ type: 'retry' })}
      />
    );
  }
  if (state.hasTag('noAppointment')) {
    return (
      <LinkNotice
        text={t('login.none')}
        href="/client-signup/appointment-selection"
        label={t('login.book')}
      />
    );
  }
  const { joinable } = state.context;
  return (
    <>
      {state.context.appointments.map((a) => (
        <section
          key={a.id}
          className="client-appointment"
          aria-labelledby={`client-appointment-${a.id}`}
        >
          <h2 id={`client-appointment-${a.id}`}>{t('login.upcomingTitle')}</h2>
          {joinable.includes(a.id) ? (
            <div className="notice client-join">
              <p>{t('overview.roomOpen')}</p>
              <Link
                href={`/meeting/${encodeURIComponent(a.meetingCodeClient)}`}
                className="button button-primary"
              >
                {t('overview.join')}
              </Link>
            </div>
          ) : null}
          <AppointmentFacts
            startDate={a.startDate}
            endDate={a.endDate}
            coachName={`${a.coach.firstName} ${a.coach.lastName}`}
          />
          <p className="client-zone-note">{t('slots.zoneNote')}</p>
          <p>{t('login.meetingCode', { code: a.meetingCodeClient })}</p>
          <div className="form-actions">
            <Link
              href={`/client-signup/reschedule-appointment/${a.id}`}
              className={joinable.includes(a.id) ? 'button' : 'button button-primary'}
            >
              {t('login.reschedule')}
            </Link>
            <Link href={`/client-signup/cancel-appointment/${a.id}`} className="button">
              {t('login.cancel')}
            </Link>
          </div>
        </section>
      ))}
    </>
  );
}
