import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { initialCalendarMachine } from '../../machines/initial-calendar.machine';
import {
  dayAgenda,
  eventsOf,
  freeStretches,
  holidayOn,
} from '../../machines/scheduling/initial-pool';
import {
  AppointmentDetailDialog,
  AppointmentPeople,
  appointmentStatusKey,
} from './AppointmentSummary';
import { CalendarGrid } from './CalendarGrid';
import { CalendarPeriodBar } from './CalendarPeriodBar';
import { CoachPicker, RetryNotice, timeRange, ZoneNote } from './parts';
import './scheduling.css';
import './initial-calendar.css';

type Actor = ActorRefFrom<typeof initialCalendarMachine>;
type Snapshot = SnapshotFrom<typeof initialCalendarMachine>;

/**
 * Free and booked initial slots by coach: a time grid on wide screens (a week, or a day with a
 * column per coach), a list per coach for the day on phones.
 */
export function InitialCalendarView({
  actorRef,
  browserZone,
}: {
  actorRef: Actor;
  browserZone: string;
}) {
  const { t } = useTranslation('scheduling');
  const state = useSelector(actorRef, (s) => s);
  const send = actorRef.send;
  const { context } = state;
  const day = context.mode === 'day';
  const allCoaches = context.coachId === null;
  const free = useMemo(
    () => freeStretches(context.data.slots, context.coachId),
    [context.data.slots, context.coachId],
  );
  const events = useMemo(
    () => eventsOf(context.data.events, context.coachId),
    [context.data.events, context.coachId],
  );

  return (
    <article className="scheduling-page calendar-page initial-calendar" data-mode={context.mode}>
      <h1>{t('initialCalendar.title')}</h1>
      <p>{t('initialCalendar.intro')}</p>
      <ZoneNote browserZone={browserZone} />
      <CoachPicker
        coaches={context.data.coaches}
        value={context.coachId}
        allowAll
        onChange={(coachId) => send({ type: 'coach.select', coachId })}
      />
      <CalendarPeriodBar
        mode={context.mode}
        narrow={context.narrow}
        anchor={context.anchor}
        disabled={!state.can({ type: 'period.next' })}
        send={send}
      />
      <ul className="calendar-legend" aria-label={t('calendar.legend')}>
        <li className="legend-free">{t('initialCalendar.legendFree')}</li>
        <li className="legend-appointment">{t('initialCalendar.booked')}</li>
        <li className="legend-holiday">{t('calendar.kinds.holiday')}</li>
      </ul>
      {state.hasTag('error') && !state.hasTag('detail') ? (
        <RetryNotice error={context.error} onRetry={() => send({ type: 'retry' })} />
      ) : null}
      {context.narrow ? (
        <DayList snapshot={state} send={send} />
      ) : (
        <div className="calendar-grid-frame" aria-busy={state.hasTag('loadingEvents')}>
          <CalendarGrid
            mode={context.mode}
            anchor={context.anchor}
            events={events}
            free={free}
            coaches={context.data.coaches}
            coachColumns={allCoaches && day}
            showCoach={allCoaches && !day}
            canOpen={state.can({ type: 'appointment.open', appointmentId: '' })}
            openId={context.appointmentId}
            onOpen={(appointmentId) => send({ type: 'appointment.open', appointmentId })}
          />
        </div>
      )}
      {state.hasTag('detail') ? <Detail snapshot={state} send={send} /> : null}
    </article>
  );
}

/** The day on a phone: per coach, free stretches and booked appointments in time order. */
function DayList({ snapshot, send }: { snapshot: Snapshot; send: Actor['send'] }) {
  const { t } = useTranslation('scheduling');
  const { context } = snapshot;
  const holiday = holidayOn(context.data.events, context.anchor);
  const agenda = dayAgenda(context.data, context.coachId, context.anchor);
  const canOpen = snapshot.can({ type: 'appointment.open', appointmentId: '' });
  return (
    <section className="initial-agenda" aria-busy={snapshot.hasTag('loadingEvents')}>
      {holiday ? (
        <p className="notice calendar-holiday">
          <span className="grid-holiday">{t('calendar.holiday', { name: holiday })}</span>{' '}
          {t('initialCalendar.noSlotsOnHoliday')}
        </p>
      ) : null}
      {!snapshot.hasTag('loadingEvents') && agenda.length === 0 && !holiday ? (
        <p>{t('initialCalendar.empty')}</p>
      ) : null}
      {agenda.map(({ coach, entries }) => (
        <section key={coach.id} aria-label={coach.name}>
          <h3>{coach.name}</h3>
          <ul>
            {entries.map((e) =>
              e.kind === 'free' ? (
                <li key={`free:${e.startDate}`} className="agenda-free">
                  <span className="time-range">{timeRange(e.startDate, e.endDate)}</span>{' '}
                  {t('initialCalendar.free')}
                </li>
              ) : (
                <li key={e.event.id} className="agenda-booked">
                  <button
                    type="button"
                    disabled={!canOpen}
                    onClick={() =>
                      send({ type: 'appointment.open', appointmentId: e.event.appointmentId! })
                    }
                  >
                    <span className="time-range">
                      {timeRange(e.event.startDate, e.event.endDate)}
                    </span>{' '}
                    {e.event.title}
                    {e.event.isProvisional ? ` · ${t('calendar.provisional')}` : null}
                  </button>
                </li>
              ),
            )}
          </ul>
        </section>
      ))}
    </section>
  );
}

function Detail({ snapshot, send }: { snapshot: Snapshot; send: Actor['send'] }) {
  const { t } = useTranslation('scheduling');
  const a = snapshot.context.appointment;
  return (
    <AppointmentDetailDialog
      title={t('initialCalendar.detailTitle')}
      appointment={a}
      loading={snapshot.hasTag('loadingDetail')}
      failed={snapshot.hasTag('detailError')}
      error={snapshot.context.error}
      onRetry={() => send({ type: 'retry' })}
      onClose={() => send({ type: 'detail.close' })}
    >
      {a ? (
        <dl>
          <AppointmentPeople appointment={a} />
          <dt>{t('calendar.detail.status')}</dt>
          <dd>{t(appointmentStatusKey(a))}</dd>
        </dl>
      ) : null}
    </AppointmentDetailDialog>
  );
}
