import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { showsJoinButton } from '../../machines/coach-meeting.machine';
import { wireCoachMeetingStart } from '../../machines/wiring/coach-meeting';
import { useRouteMachine } from '../route-actor';
import { Busy, CodeForm, TYPE_LABELS, When } from './parts';

const meetingPath = (code: string) => `/coach/meeting/${encodeURIComponent(code)}`;

/** `/coach/meeting`: the next two appointments with join buttons, and the meeting-code form. */
export default function CoachMeetingStartPage() {
  const { t } = useTranslation('meeting');
  const ids = { upcoming: useId(), form: useId() };
  const [state, send] = useRouteMachine(wireCoachMeetingStart, { input: {} });
  const { context } = state;
  const checking = state.hasTag('checkingCode');

  return (
    <article className="meeting-page">
      <h1>{t('title.coachStart')}</h1>
      <section className="meeting-card" aria-labelledby={ids.upcoming}>
        <h2 id={ids.upcoming}>{t('coach.upcoming')}</h2>
        {state.hasTag('loadingUpcoming') && context.upcoming.length === 0 ? (
          <Busy label={t('state.loading')} />
        ) : null}
        {state.hasTag('upcomingError') ? (
          <div className="notice notice-error" role="alert">
            <p>{t('coach.upcomingFailed')}</p>
            <button
              type="button"
              className="button"
              onClick={() => send({ type: 'upcoming.retry' })}
            >
              {t('errors.retry')}
            </button>
          </div>
        ) : null}
        {state.hasTag('upcomingLoaded') && context.upcoming.length === 0 ? (
          <p>{t('coach.noUpcoming')}</p>
        ) : null}
        {context.upcoming.length > 0 ? (
          <ul className="meeting-upcoming">
            {context.upcoming.map((a) => (
              <li key={a.id} data-testid="upcoming-appointment">
                <div>
                  <strong>{a.clientName}</strong>
                  <br />
                  <When startDate={a.startDate} endDate={a.endDate} /> ·{' '}
                  {t(TYPE_LABELS[a.appointmentType] ?? 'appointment.heading')}
                </div>
                <div className="form-actions">
                  <Link className="button" href={meetingPath(a.meetingCodeCoach)}>
                    {t('coach.details')}
                  </Link>
                  {showsJoinButton(a, context.nowMs) ? (
                    <Link
                      className="button button-primary"
                      href={`${meetingPath(a.meetingCodeCoach)}/join`}
                      aria-label={t('coach.joinWith', { name: a.clientName })}
                    >
                      {t('coach.join')}
                    </Link>
                  ) : null}
                </div>
              </li>
            ))}
          </ul>
        ) : null}
      </section>
      <section className="meeting-card" aria-labelledby={ids.form}>
        <h2 id={ids.form}>{t('coach.enterCode')}</h2>
        <CodeForm
          code={context.code}
          error={context.error}
          hint={t('code.coachHint')}
          submitLabel={checking ? t('code.checking') : t('code.coachSubmit')}
          busy={checking}
          onChange={(value) => send({ type: 'code.change', value })}
          onSubmit={() => send({ type: 'code.submit' })}
        />
      </section>
    </article>
  );
}
