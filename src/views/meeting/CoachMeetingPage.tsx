import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { CoachMeetingMode } from '../../machines/coach-meeting.machine';
import { msUntilOpen, type CoachMeetingOverview } from '../../machines/meeting/shared';
import {
  Busy,
  CancelledNotice,
  ErrorNotice,
  ExternalLink,
  ExternalNotice,
  MeetingFrame,
  OverNotice,
  TYPE_LABELS,
  SOON_S,
  WaitingNotice,
  When,
  dateOf,
  timeOf,
} from './parts';
import { wireCoachMeeting } from '../../machines/wiring/coach-meeting';
import { useRouteMachine } from '../route-actor';

const TITLES: Record<CoachMeetingMode, string> = {
  overview: 'title.overview',
  join: 'title.room',
  finished: 'title.finished',
};

function Overview({ overview, nowMs }: { overview: CoachMeetingOverview; nowMs: number }) {
  const { t } = useTranslation('meeting');
  const ids = { client: useId(), appointment: useId(), earlier: useId() };
  const { client, appointment } = overview;
  const year = client.yearOfBirth;
  const age = year ? new Date(nowMs).getUTCFullYear() - year : null;
  return (
    <>
      <section className="meeting-card" aria-labelledby={ids.appointment}>
        <h2 id={ids.appointment}>{t('appointment.heading')}</h2>
        <dl className="meeting-facts">
          <dt>{t('appointment.type')}</dt>
          <dd>{t(TYPE_LABELS[appointment.appointmentType] ?? 'appointment.heading')}</dd>
          <dt>{t('appointment.heading')}</dt>
          <dd>
            <When startDate={appointment.startDate} endDate={appointment.endDate} />
          </dd>
        </dl>
      </section>
      <section className="meeting-card" aria-labelledby={ids.client}>
        <h2 id={ids.client}>{t('coach.client')}</h2>
        <dl className="meeting-facts">
          <dt>{t('coach.name')}</dt>
          <dd data-testid="client-name">{`${client.firstName} ${client.lastName}`}</dd>
          <dt>{t('coach.age')}</dt>
          <dd>{age !== null && year ? t('coach.ageValue', { age, year }) : t('coach.unknown')}</dd>
          <dt>{t('coach.insurer')}</dt>
          <dd>{client.insurer ?? t('coach.unknown')}</dd>
        </dl>
      </section>
      <section className="meeting-card" aria-labelledby={ids.earlier}>
        <h2 id={ids.earlier}>{t('coach.earlier')}</h2>
        {overview.earlierAppointments.length === 0 ? (
          <p>{t('coach.noEarlier')}</p>
        ) : (
          <ul>
            {overview.earlierAppointments.map((a) => (
              <li key={a.id}>
                <When startDate={a.startDate} endDate={a.endDate} /> ·{' '}
                {t(TYPE_LABELS[a.appointmentType] ?? 'appointment.heading')}
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

/** `/coach/meeting/{code}`, `…/join` and `…/finished`: one coach meeting machine per page. */
export function CoachMeetingPage({ code, mode }: { code: string; mode: CoachMeetingMode }) {
  const { t, i18n } = useTranslation('meeting');
  const [state, send] = useRouteMachine((effects) => wireCoachMeeting(effects, code), {
    input: { code, mode, lang: i18n.language },
  });
  const { context } = state;
  const overview = context.overview;
  const inRoom = state.hasTag('room');
  const canJoin = state.can({ type: 'meeting.join' });

  return (
    <MeetingFrame
      title={t(TITLES[mode])}
      inRoom={inRoom}
      failed={state.hasTag('failed')}
      error={context.error}
      onRetry={() => send({ type: 'meeting.retry' })}
    >
      {state.hasTag('lookingUp') ? <Busy label={t('state.loading')} /> : null}
      {state.hasTag('invalidCode') ? (
        <>
          <ErrorNotice error={context.error} />
          <Link href="/coach/meeting">{t('coach.backToMeetings')}</Link>
        </>
      ) : null}
      {state.hasTag('overview') && overview ? (
        <>
          <Overview overview={overview} nowMs={context.nowMs} />
          <div className="form-actions">
            {overview.appointment.meetingType !== 'jitsi' && overview.externalJoinUrl ? (
              <ExternalLink url={overview.externalJoinUrl} />
            ) : (
              <button
                type="button"
                className="button button-primary"
                disabled={!canJoin}
                onClick={() => send({ type: 'meeting.join' })}
              >
                {t('coach.join')}
              </button>
            )}
            {!canJoin &&
            overview.appointment.meetingType === 'jitsi' &&
            !overview.appointment.cancelledAt ? (
              <p>{t('coach.joinNotYet', { time: timeOf(overview.joinableFrom) })}</p>
            ) : null}
          </div>
          {overview.finishedAt ? (
            <p>
              {t('coach.finishedAt', {
                date: dateOf(overview.finishedAt),
                time: timeOf(overview.finishedAt),
              })}
            </p>
          ) : null}
          {overview.appointment.cancelledAt ? <CancelledNotice /> : null}
        </>
      ) : null}
      {state.hasTag('waiting') && overview ? (
        <WaitingNotice
          joinableFrom={overview.joinableFrom}
          countdownSeconds={Math.ceil(msUntilOpen(overview, context.nowMs) / 1000)}
          soon={msUntilOpen(overview, context.nowMs) <= SOON_S * 1000}
        />
      ) : null}
      {state.hasTag('connecting') ? <Busy label={t('state.joining')} /> : null}
      {state.hasTag('cancelled') ? <CancelledNotice /> : null}
      {state.hasTag('over') ? <OverNotice /> : null}
      {state.hasTag('external') && overview ? (
        <ExternalNotice url={overview.externalJoinUrl} />
      ) : null}
      {state.hasTag('recording') ? <Busy label={t('coach.recording')} /> : null}
      {state.hasTag('finished') && context.finished ? (
        <>
          <div className="notice notice-success" role="status">
            <p>{t('finished.coachText')}</p>
            <p>
              {t('coach.finishedAt', {
                date: dateOf(context.finished.finishedAt),
                time: timeOf(context.finished.finishedAt),
              })}
            </p>
          </div>
          <div className="form-actions">
            <Link
              className="button button-primary"
              href={`/appointments/${context.finished.appointmentId}`}
            >
              {t('coach.toSummary')}
            </Link>
            <Link className="button" href="/coach/meeting">
              {t('coach.backToMeetings')}
            </Link>
          </div>
        </>
      ) : null}
    </MeetingFrame>
  );
}

type PageProps = { params?: { meetingCode?: string | undefined } };

export function CoachMeetingOverviewPage({ params }: PageProps) {
  return <CoachMeetingPage key="overview" code={params?.meetingCode ?? ''} mode="overview" />;
}
export function CoachMeetingJoinPage({ params }: PageProps) {
  return <CoachMeetingPage key="join" code={params?.meetingCode ?? ''} mode="join" />;
}
export function CoachMeetingFinishedPage({ params }: PageProps) {
  return <CoachMeetingPage key="finished" code={params?.meetingCode ?? ''} mode="finished" />;
}
