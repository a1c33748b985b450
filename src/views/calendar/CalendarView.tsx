import { useSelector } from '@xstate/react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import { tKey } from '../../i18n/keys';
import { visibleDays, type calendarMachine } from '../../machines/calendar.machine';
import type { Appointment, CalendarEvent } from '../../machines/scheduling/shared';
import { berlinDate, formatDate, mondayOf, todayInBerlin } from '../../../shared/time';
import {
  APPOINTMENT_TYPE_LABELS,
  CoachPicker,
  errorKey,
  PeriodNav,
  RetryNotice,
  timeRange,
  useDayLabel,
  useWeekTitle,
  weekdayShortKey,
  ZoneNote,
} from './parts';
import { BusyButton } from '../parts/BusyButton';
import './scheduling.css';

type CalendarActor = ActorRefFrom<typeof calendarMachine>;
type CalendarSnapshot = SnapshotFrom<typeof calendarMachine>;

/** Week (or, on narrow screens, day) of appointments, availability, blockers and holidays. */
export function CalendarView({ actorRef, browserZone }: { actorRef: CalendarActor; browserZone: string }) {
  const { t } = useTranslation('scheduling');
  const state = useSelector(actorRef, (s) => s);
  const send = actorRef.send;
  const weekTitle = useWeekTitle();
  const dayLabel = useDayLabel();
  const { context } = state;
  const day = context.mode === 'day';

  return (
    <article className="scheduling-page calendar-page" data-mode={context.mode}>
      <h1>{t('calendar.title')}</h1>
      <ZoneNote browserZone={browserZone} />
      {context.canPickCoach ? (
        <CoachPicker
          coaches={context.coaches}
          value={context.coachId}
          allowAll
          disabled={!state.can({ type: 'coach.select', coachId: null })}
          onChange={(coachId) => send({ type: 'coach.select', coachId })}
        />
      ) : null}
      <PeriodNav
        title={day ? dayLabel(context.anchor) : weekTitle(mondayOf(context.anchor))}
        previousLabel={day ? t('nav.previousDay') : t('nav.previousWeek')}
        nextLabel={day ? t('nav.nextDay') : t('nav.nextWeek')}
        disabled={!state.can({ type: 'period.next' })}
        onPrevious={() => send({ type: 'period.previous' })}
        onToday={() => send({ type: 'period.today', today: todayInBerlin() })}
        onNext={() => send({ type: 'period.next' })}
      />
      <ul className="calendar-legend" aria-label={t('calendar.legend')}>
        <li className="legend-appointment">{t('calendar.kinds.appointment')}</li>
        <li className="legend-availability">{t('calendar.kinds.availability')}</li>
        <li className="legend-blocker">{t('calendar.kinds.blocker')}</li>
        <li className="legend-holiday">{t('calendar.kinds.holiday')}</li>
      </ul>
      {state.hasTag('eventsError') ? (
        <RetryNotice error={context.error} onRetry={() => send({ type: 'retry' })} />
      ) : null}
      <Days snapshot={state} send={send} />
      {state.hasTag('detail') ? <Detail snapshot={state} send={send} /> : null}
    </article>
  );
}

function Days({ snapshot, send }: { snapshot: CalendarSnapshot; send: CalendarActor['send'] }) {
  const { t } = useTranslation('scheduling');
  const dayLabel = useDayLabel();
  const { context } = snapshot;
  const busy = snapshot.hasTag('loadingEvents');
  const coachName = (id: string | null) => context.coaches.find((c) => c.id === id)?.name;
  const showCoach = context.canPickCoach && context.coachId === null;
  const canOpen = snapshot.can({ type: 'appointment.open', appointmentId: '' });
  return (
    <div className={context.mode === 'day' ? 'week-grid day-grid' : 'week-grid'} aria-busy={busy}>
      {visibleDays(context).map((day) => {
        const events = context.events.filter((e) => berlinDate(e.startDate).equals(day));
        const holidays = events.filter((e) => e.kind === 'holiday');
        const timed = events.filter((e) => e.kind !== 'holiday');
        const headingId = `cal-${day.toString()}`;
        return (
          <section key={day.toString()} className="day-column" aria-labelledby={headingId}>
            <h3 id={headingId}>
              <abbr title={dayLabel(day)}>{t(weekdayShortKey(day))}</abbr> {formatDate(day)}
            </h3>
            {holidays.map((h) => (
              <p key={h.id} className="event event-holiday">
                {t('calendar.holiday', { name: h.title })}
              </p>
            ))}
            {timed.length === 0 && holidays.length === 0 ? <p className="day-empty">{t('calendar.dayEmpty')}</p> : null}
            <ul className="day-events">
              {timed.map((e) => (
                <li key={e.id}>
                  <EventItem
                    event={e}
                    coach={showCoach ? coachName(e.coachId) : undefined}
                    canOpen={canOpen}
                    onOpen={() => e.appointmentId && send({ type: 'appointment.open', appointmentId: e.appointmentId })}
                  />
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </div>
  );
}

function EventItem(props: { event: CalendarEvent; coach: string | undefined; canOpen: boolean; onOpen: () => void }) {
  const { t } = useTranslation('scheduling');
  const e = props.event;
  const time = <span className="event-time">{timeRange(e.startDate, e.endDate)}</span>;
  // Separators stay outside the spans, so the accessible name keeps its spaces.
  const coach = props.coach ? (
    <>
      {' · '}
      <span className="event-coach">{props.coach}</span>
    </>
  ) : null;
  if (e.kind === 'appointment') {
    return (
      <button type="button" className="event event-appointment" disabled={!props.canOpen} onClick={props.onOpen}>
        {time} <span className="event-title">{e.title}</span>
        {e.appointmentType ? (
          <>
            {' · '}
            <span className="event-meta">{t(APPOINTMENT_TYPE_LABELS[e.appointmentType])}</span>
          </>
        ) : null}
        {e.isProvisional ? (
          <>
            {' · '}
            <span className="event-meta">{t('calendar.provisional')}</span>
          </>
        ) : null}
        {coach}
      </button>
    );
  }
  return (
    <p className={`event event-${e.kind}`}>
      {time}{' '}
      <span className="event-title">
        {e.kind === 'availability' ? t('calendar.kinds.availability') : t('calendar.kinds.blocker')}
      </span>
      {e.title !== 'Verfügbar' && e.title !== 'Blocker' ? (
        <>
          {' · '}
          <span className="event-note">{e.title}</span>
        </>
      ) : null}
      {coach}
    </p>
  );
}

function statusKey(a: Appointment): string {
  if (a.cancelledAt) return tKey('scheduling:calendar.status.cancelled');
  if (a.noShow) return tKey('scheduling:calendar.status.noShow');
  if (a.isProvisional) return tKey('scheduling:calendar.status.provisional');
  return tKey('scheduling:calendar.status.scheduled');
}

function Detail({ snapshot, send }: { snapshot: CalendarSnapshot; send: CalendarActor['send'] }) {
  const { t } = useTranslation('scheduling');
  const dayLabel = useDayLabel();
  const headingId = useId();
  const a = snapshot.context.appointment;
  const confirming = snapshot.hasTag('confirmingCancel');
  const cancelling = snapshot.hasTag('cancelling');
  return (
    <section className="detail-panel appointment-detail" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('calendar.detail.title')}</h2>
      {snapshot.hasTag('loadingDetail') ? <div className="page-loading" aria-busy="true" /> : null}
      {snapshot.hasTag('detailError') ? (
        <RetryNotice error={snapshot.context.error} onRetry={() => send({ type: 'retry' })} />
      ) : null}
      {a ? (
        <>
          <dl>
            <dt>{t('calendar.detail.client')}</dt>
            <dd>{a.clientName}</dd>
            <dt>{t('calendar.detail.coach')}</dt>
            <dd>
              {a.coach.firstName} {a.coach.lastName}
            </dd>
            <dt>{t('calendar.detail.when')}</dt>
            <dd>
              {dayLabel(berlinDate(a.startDate))}, {timeRange(a.startDate, a.endDate)}
            </dd>
            <dt>{t('calendar.detail.type')}</dt>
            <dd>{t(APPOINTMENT_TYPE_LABELS[a.appointmentType])}</dd>
            <dt>{t('calendar.detail.status')}</dt>
            <dd>{t(statusKey(a))}</dd>
            <dt>{t('calendar.detail.coachCode')}</dt>
            <dd>
              <code>{a.meetingCodeCoach}</code>
            </dd>
            <dt>{t('calendar.detail.clientCode')}</dt>
            <dd>
              <code>{a.meetingCodeClient}</code>
            </dd>
          </dl>
          {snapshot.context.error && !snapshot.hasTag('detailError') ? (
            <p className="notice notice-error" role="alert">
              {t(errorKey(snapshot.context.error))}
            </p>
          ) : null}
          {confirming || cancelling ? (
            <div className="confirm" role="alertdialog" aria-labelledby={`${headingId}-confirm`}>
              <p id={`${headingId}-confirm`}>{t('calendar.detail.confirmCancel', { client: a.clientName })}</p>
              <div className="form-actions">
                <BusyButton
                  busy={cancelling}
                  label={t('calendar.detail.cancelConfirm')}
                  onClick={() => send({ type: 'cancel.confirm' })}
                />
                <button type="button" className="button" disabled={cancelling} onClick={() => send({ type: 'cancel.abort' })}>
                  {t('calendar.detail.keep')}
                </button>
              </div>
            </div>
          ) : null}
        </>
      ) : null}
      <div className="form-actions">
        {a && snapshot.can({ type: 'cancel.request' }) ? (
          <button type="button" className="button" onClick={() => send({ type: 'cancel.request' })}>
            {t('calendar.detail.cancel')}
          </button>
        ) : null}
        <button type="button" className="button" disabled={cancelling} onClick={() => send({ type: 'detail.close' })}>
          {t('close')}
        </button>
      </div>
    </section>
  );
}
