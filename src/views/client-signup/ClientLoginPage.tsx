import { useTranslation } from 'react-i18next';
import { Link, useSearch } from 'wouter';
import { safeReturnTo } from '../../lib/return-to';
import { useSessionStatus } from '../session-status';
import { wireClientAppointments } from '../../machines/wiring/client-appointments';
import { AuthWidget } from '../auth/AuthWidget';
import { useRouteMachine } from '../route-actor';
import { AppointmentFacts, ClientPage, ErrorNotice, LinkNotice } from './parts';

/**
 * `/client-signup/login`: the sign-in widget; once signed in, the client's upcoming
 * appointment with cancel and reschedule (or the way to book one).
 */
export default function ClientLoginPage() {
  const { t } = useTranslation('client');
  const status = useSessionStatus();
  const returnTo = safeReturnTo(new URLSearchParams(useSearch()).get('returnTo'));
  if (status.kind === 'signedIn' && status.session.active) {
    return (
      <ClientPage title={t('login.overviewTitle')}>
        {returnTo ? (
          <p>
            <Link href={returnTo}>{t('login.continue')}</Link>
          </p>
        ) : null}
        <Upcoming />
      </ClientPage>
    );
  }
  return (
    <ClientPage title={t('login.title')}>
      {status.kind === 'signedIn' ? (
        <div className="notice">
          <p>{t('gate.noClient')}</p>
          <Link href="/client-signup" className="button button-primary">
            {t('gate.toSignup')}
          </Link>
        </div>
      ) : (
        <>
          <p>{t('login.intro')}</p>
          <AuthWidget flow="login" />
          <p>
            {t('login.noAccount')} <Link href="/client-signup">{t('gate.toSignup')}</Link>
          </p>
        </>
      )}
    </ClientPage>
  );
}

function Upcoming() {
  const { t } = useTranslation('client');
  const [state, send] = useRouteMachine(wireClientAppointments);
  if (state.hasTag('loading')) return <p role="status">{t('login.loading')}</p>;
  if (state.hasTag('loadError')) {
    return <ErrorNotice code={state.context.error?.code ?? 'unknown'} onRetry={() => send({ type: 'retry' })} />;
  }
  if (state.hasTag('noAppointment')) {
    return <LinkNotice text={t('login.none')} href="/client-signup/appointment-selection" label={t('login.book')} />;
  }
  return (
    <>
      {state.context.appointments.map((a) => (
        <section key={a.id} className="client-appointment" aria-label={t('login.upcomingTitle')}>
          <h2>{t('login.upcomingTitle')}</h2>
          <AppointmentFacts
            startDate={a.startDate}
            endDate={a.endDate}
            coachName={`${a.coach.firstName} ${a.coach.lastName}`}
          />
          <p className="client-zone-note">{t('slots.zoneNote')}</p>
          <p>{t('login.meetingCode', { code: a.meetingCodeClient })}</p>
          <div className="form-actions">
            <Link href={`/client-signup/reschedule-appointment/${a.id}`} className="button button-primary">
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
