import { useSelector } from '@xstate/react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { calendarMachine } from '../../machines/calendar.machine';
import { berlinDate } from '../../../shared/time';
import {
  AppointmentDetailDialog,
  AppointmentPeople,
  appointmentStatusKey,
} from './AppointmentSummary';
import { CalendarGrid } from './CalendarGrid';
import { CalendarPeriodBar } from './CalendarPeriodBar';
import { copyAge } from './grid-events';
import {
  APPOINTMENT_TYPE_LABELS,
  CoachPicker,
  errorKey,
  RetryNotice,
  timeRange,
  useDayLabel,
  ZoneNote,
} from './parts';
import { ConfirmActions } from '../parts/ConfirmActions';
import './scheduling.css';

type CalendarActor = ActorRefFrom<typeof calendarMachine>;
type CalendarSnapshot = SnapshotFrom<typeof calendarMachine>;

/** Week (or, on narrow screens, day) of appointments, availability, blockers and holidays. */
export function CalendarView({
  actorRef,
  browserZone,
}: {
  actorRef: CalendarActor;
  browserZone: string;
}) {
  const { t } = useTranslation('scheduling');
  const state = useSelector(actorRef, (s) => s);
  const send = actorRef.send;
  const { context } = state;
  const day = context.mode === 'day';
  const allCoaches = context.canPickCoach && context.coachId === null;

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
      <CalendarPeriodBar
        mode={context.mode}
        narrow={context.narrow}
        anchor={context.anchor}
        disabled={!state.can({ type: 'period.next' })}
        send={send}
      />
      <ul className="calendar-legend" aria-label={t('calendar.legend')}>
        <li className="legend-appointment">{t('calendar.kinds.appointment')}</li>
        <li className="legend-availability">{t('calendar.kinds.availability')}</li>
        <li className="legend-blocker">{t('calendar.kinds.blocker')}</li>
        <li className="legend-holiday">{t('calendar.kinds.holiday')}</li>
        {context.privateBusy.length || context.privateCalendars.length ? (
          <li className="legend-private">{t('calendar.kinds.private')}</li>
        ) : null}
      </ul>
      <PrivateCopyNotices snapshot={state} allCoaches={allCoaches} />
      <PrivateConflictNotices snapshot={state} />
      {state.hasTag('eventsError') ? (
        <RetryNotice error={context.error} onRetry={() => send({ type: 'retry' })} />
      ) : null}
      <div className="calendar-grid-frame" aria-busy={state.hasTag('loadingEvents')}>
        <CalendarGrid
          mode={context.mode}
          anchor={context.anchor}
          events={context.events}
          privateBusy={context.privateBusy}
          coaches={context.coaches}
          coachColumns={allCoaches && day && !context.narrow}
          showCoach={allCoaches && !(day && !context.narrow)}
          canOpen={state.can({ type: 'appointment.open', appointmentId: '' })}
          openId={context.appointmentId}
          onOpen={(appointmentId) => send({ type: 'appointment.open', appointmentId })}
        />
      </div>
      {state.hasTag('detail') ? <Detail snapshot={state} send={send} /> : null}
    </article>
  );
}

/**
 * A failing connection's kept copy still blocks slots: staff see how old it is, per coach, so
 * they know how far to trust the private blocks.
 */
function PrivateCopyNotices({
  snapshot,
  allCoaches,
}: {
  snapshot: CalendarSnapshot;
  allCoaches: boolean;
}) {
  const { t } = useTranslation('scheduling');
  const { privateCalendars, coaches, loadedAt } = snapshot.context;
  const failing = privateCalendars.filter((c) => c.failing);
  if (!failing.length) return null;
  return (
    <ul className="calendar-private-copy" aria-live="polite">
      {failing.map((c, i) => {
        const coach = allCoaches ? coaches.find((o) => o.id === c.coachId)?.name : undefined;
        const text = c.lastSyncedAt
          ? coach
            ? t('calendar.privateCopyOf', { coach, age: copyAge(c.lastSyncedAt, loadedAt) })
            : t('calendar.privateCopy', { age: copyAge(c.lastSyncedAt, loadedAt) })
          : coach
            ? t('calendar.privateCopyNeverOf', { coach })
            : t('calendar.privateCopyNever');
        return (
          <li key={`${c.coachId}:${i}`} className="notice notice-warning">
            {text}
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The appointments of the shown week or day that a private busy time overlaps, each with the
 * full warning: an entry in the grid is often too narrow for it (a phone's day, a week's
 * columns), so there it shows as the red frame only.
 */
function PrivateConflictNotices({ snapshot }: { snapshot: CalendarSnapshot }) {
  const { t } = useTranslation('scheduling');
  const dayLabel = useDayLabel();
  const { events, mode, anchor } = snapshot.context;
  const overlapped = events.filter(
    (e) => e.privateConflict && (mode === 'week' || berlinDate(e.startDate).equals(anchor)),
  );
  if (!overlapped.length) return null;
  return (
    <ul className="calendar-conflicts" aria-label={t('calendar.privateConflicts')}>
      {overlapped.map((e) => (
        <li key={e.id} className="notice notice-warning">
          <strong>{t('calendar.privateConflict')}</strong>
          {': '}
          {dayLabel(berlinDate(e.startDate))},{' '}
          <span className="time-range">{timeRange(e.startDate, e.endDate)}</span> · {e.title}
        </li>
      ))}
    </ul>
  );
}

function Detail({ snapshot, send }: { snapshot: CalendarSnapshot; send: CalendarActor['send'] }) {
  const { t } = useTranslation('scheduling');
  const headingId = useId();
  const a = snapshot.context.appointment;
  const conflict =
    a !== null &&
    a.cancelledAt === null &&
    snapshot.context.events.some((e) => e.appointmentId === a.id && e.privateConflict);
  const confirming = snapshot.hasTag('confirmingCancel');
  const cancelling = snapshot.hasTag('cancelling');
  return (
    <AppointmentDetailDialog
      title={t('calendar.detail.title')}
      appointment={a}
      loading={snapshot.hasTag('loadingDetail')}
      failed={snapshot.hasTag('detailError')}
      error={snapshot.context.error}
      onRetry={() => send({ type: 'retry' })}
      onClose={() => send({ type: 'detail.close' })}
      closeDisabled={cancelling}
      actions={
        a && snapshot.can({ type: 'cancel.request' }) ? (
          <button type="button" className="button" onClick={() => send({ type: 'cancel.request' })}>
            {t('calendar.detail.cancel')}
          </button>
        ) : null
      }
    >
      {a ? (
        <>
          <dl>
            <AppointmentPeople appointment={a} />
            <dt>{t('calendar.detail.type')}</dt>
            <dd>{t(APPOINTMENT_TYPE_LABELS[a.appointmentType])}</dd>
            <dt>{t('calendar.detail.status')}</dt>
            <dd>{t(appointmentStatusKey(a))}</dd>
            <dt>{t('calendar.detail.coachCode')}</dt>
            <dd>
              <code>{a.meetingCodeCoach}</code>
            </dd>
            <dt>{t('calendar.detail.clientCode')}</dt>
            <dd>
              <code>{a.meetingCodeClient}</code>
            </dd>
          </dl>
          {conflict ? (
            <p className="notice notice-warning">{t('calendar.privateConflictDetail')}</p>
          ) : null}
          {snapshot.context.error && !snapshot.hasTag('detailError') ? (
            <p className="notice notice-error" role="alert">
              {t(errorKey(snapshot.context.error))}
            </p>
          ) : null}
          {confirming || cancelling ? (
            <div className="confirm" role="alertdialog" aria-labelledby={`${headingId}-confirm`}>
              <p id={`${headingId}-confirm`}>
                {t('calendar.detail.confirmCancel', { client: a.clientName })}
              </p>
              <ConfirmActions
                busy={cancelling}
                label={t('calendar.detail.cancelConfirm')}
                onConfirm={() => send({ type: 'cancel.confirm' })}
                backLabel={t('calendar.detail.keep')}
                onBack={() => send({ type: 'cancel.abort' })}
              />
            </div>
          ) : null}
        </>
      ) : null}
    </AppointmentDetailDialog>
  );
}
