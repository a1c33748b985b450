import { useMachine } from '@xstate/react';
import { useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { useAppServices } from '../../app/services';
import { loadUpcomingActor, lookupCoachMeetingActor } from '../../machines/actors/meeting';
import { coachMeetingStartMachine, showsJoinButton } from '../../machines/coach-meeting.machine';
import { Busy, TYPE_LABELS, When, errorKey } from './parts';

const meetingPath = (code: string) => `/coach/meeting/${encodeURIComponent(code)}`;

/** `/coach/meeting`: the next two appointments with join buttons, and the meeting-code form. */
export default function CoachMeetingStartPage() {
  const { t } = useTranslation('meeting');
  const { api } = useAppServices();
  const [, navigate] = useLocation();
  const ids = { code: useId(), upcoming: useId(), form: useId() };
  const machine = useMemo(
    () =>
      coachMeetingStartMachine.provide({
        actors: {
          loadUpcoming: loadUpcomingActor(api),
          lookupCoachMeeting: lookupCoachMeetingActor(api),
        },
        actions: { openMeeting: (_, p) => navigate(meetingPath(p.code)) },
      }),
    [api, navigate],
  );
  const [state, send] = useMachine(machine, { input: {} });
  const { context } = state;
  const checking = state.matches({ codeForm: 'checking' });

  return (
    <article className="meeting-page">
      <h1>{t('title.coachStart')}</h1>
      <section className="meeting-card" aria-labelledby={ids.upcoming}>
        <h2 id={ids.upcoming}>{t('coach.upcoming')}</h2>
        {state.matches({ upcoming: 'loading' }) && context.upcoming.length === 0 ? (
          <Busy label={t('state.loading')} />
        ) : null}
        {state.matches({ upcoming: 'failed' }) ? (
          <div className="notice notice-error" role="alert">
            <p>{t('coach.upcomingFailed')}</p>
            <button type="button" className="button" onClick={() => send({ type: 'upcoming.retry' })}>
              {t('errors.retry')}
            </button>
          </div>
        ) : null}
        {state.matches({ upcoming: 'loaded' }) && context.upcoming.length === 0 ? (
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
        <form
          className="meeting-code-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            send({ type: 'code.submit' });
          }}
        >
          <div className="field">
            <label htmlFor={ids.code}>{t('code.label')}</label>
            <input
              id={ids.code}
              name="meetingCode"
              value={context.code}
              autoComplete="off"
              spellCheck={false}
              maxLength={64}
              disabled={checking}
              aria-invalid={context.error ? true : undefined}
              aria-describedby={context.error ? `${ids.code}-error` : `${ids.code}-hint`}
              onChange={(e) => send({ type: 'code.change', value: e.target.value })}
            />
            <p id={`${ids.code}-hint`}>{t('code.coachHint')}</p>
            {context.error ? (
              <p id={`${ids.code}-error`} className="field-error" role="alert">
                {t(errorKey(context.error))}
              </p>
            ) : null}
          </div>
          <button type="submit" className="button button-primary" disabled={checking} aria-busy={checking}>
            {checking ? t('code.checking') : t('code.coachSubmit')}
          </button>
        </form>
      </section>
    </article>
  );
}
