import { useSelector } from '@xstate/react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import {
  ADHOC_DURATIONS,
  MIN_QUERY_LENGTH,
  REGULAR_TYPES,
  type bookingMachine,
} from '../../machines/appointment-booking.machine';
import type { AppointmentType, FreeSlot } from '../../machines/scheduling/shared';
import { berlinDate, berlinTime, daysFrom, parsePlainDate } from '../../../shared/time';
import { ConfirmActions } from '../parts/ConfirmActions';
import {
  APPOINTMENT_TYPE_LABELS,
  CoachPicker,
  errorKey,
  PeriodNav,
  RetryNotice,
  timeRange,
  useDayLabel,
  useWeekTitle,
  ZoneNote,
} from '../calendar/parts';
import {
  usePickerState,
  useSlotPicker,
  type SlotPickerActor,
  type SlotPickerSnapshot,
} from './slot-picker';
import '../calendar/scheduling.css';

type BookingActor = ActorRefFrom<typeof bookingMachine>;
type BookingSnapshot = SnapshotFrom<typeof bookingMachine>;

/** Client → coach, type and free slot → confirm → booked. */
export function BookingView({
  actorRef,
  browserZone,
}: {
  actorRef: BookingActor;
  browserZone: string;
}) {
  const { t } = useTranslation('scheduling');
  const state = useSelector(actorRef, (s) => s);
  const send = actorRef.send;
  const { context } = state;
  const adhoc = context.kind === 'adhoc';
  const picker = useSlotPicker(actorRef);
  const picking = usePickerState(picker);

  return (
    <article className="scheduling-page booking-page">
      <h1>{adhoc ? t('booking.titleAdhoc') : t('booking.title')}</h1>
      <ZoneNote browserZone={browserZone} />
      {state.hasTag('noCoach') ? (
        <p className="notice" role="status">
          {t('booking.noCoachRecord')}
        </p>
      ) : state.hasTag('loadingCoaches') ? (
        <div className="page-loading" aria-busy="true" />
      ) : state.hasTag('coachesError') ? (
        <RetryNotice error={context.error} onRetry={() => send({ type: 'retry' })} />
      ) : state.hasTag('booked') ? (
        <Booked snapshot={state} send={send} />
      ) : (
        <>
          <ClientStep snapshot={state} send={send} />
          {state.hasTag('slotStep') && picker && picking ? (
            <SlotStep snapshot={state} send={send} picker={picker} picking={picking} />
          ) : null}
          {picker && picking?.hasTag('confirm') ? (
            <Confirm snapshot={state} picker={picker} picking={picking} />
          ) : null}
        </>
      )}
    </article>
  );
}

function ClientStep({ snapshot, send }: { snapshot: BookingSnapshot; send: BookingActor['send'] }) {
  const { t } = useTranslation('scheduling');
  const id = useId();
  const { context } = snapshot;
  if (!snapshot.hasTag('choosingClient') && context.client) {
    return (
      <section className="booking-step" aria-labelledby={`${id}-h`}>
        <h2 id={`${id}-h`}>{t('booking.client')}</h2>
        <p className="chosen">
          <strong>
            {context.client.firstName} {context.client.lastName}
          </strong>
          {context.client.email ? <span> · {context.client.email}</span> : null}
        </p>
        <button
          type="button"
          className="button"
          disabled={!snapshot.can({ type: 'client.change' })}
          onClick={() => send({ type: 'client.change' })}
        >
          {t('booking.changeClient')}
        </button>
      </section>
    );
  }
  const searching = snapshot.hasTag('searchingClients');
  const showResults = snapshot.hasTag('clientResults');
  return (
    <section className="booking-step" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('booking.client')}</h2>
      <div className="field">
        <label htmlFor={`${id}-q`}>{t('booking.searchClient')}</label>
        <input
          id={`${id}-q`}
          type="search"
          autoComplete="off"
          value={context.query}
          aria-describedby={`${id}-hint`}
          onChange={(e) => send({ type: 'client.query', query: e.target.value })}
        />
        <p id={`${id}-hint`} className="field-hint">
          {t('booking.searchHint', { count: MIN_QUERY_LENGTH })}
        </p>
      </div>
      <div aria-live="polite" aria-busy={searching}>
        {snapshot.hasTag('clientSearchError') ? (
          <RetryNotice error={context.error} onRetry={() => send({ type: 'retry' })} />
        ) : null}
        {showResults && context.results.length === 0 ? <p>{t('booking.noClients')}</p> : null}
        {showResults && context.results.length > 0 ? (
          <ul className="client-results" aria-label={t('booking.clientResults')}>
            {context.results.map((c) => (
              <li key={c.id}>
                <button
                  type="button"
                  className="button"
                  onClick={() => send({ type: 'client.select', client: c })}
                >
                  {c.firstName} {c.lastName}
                  {c.yearOfBirth ? ` (${t('booking.born', { year: c.yearOfBirth })})` : ''}
                  {c.email ? ` · ${c.email}` : ''}
                </button>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </section>
  );
}

function SlotStep({
  snapshot,
  send,
  picker,
  picking,
}: {
  snapshot: BookingSnapshot;
  send: BookingActor['send'];
  picker: SlotPickerActor;
  picking: SlotPickerSnapshot;
}) {
  const { t } = useTranslation('scheduling');
  const id = useId();
  const weekTitle = useWeekTitle();
  const dayLabel = useDayLabel();
  const { context } = snapshot;
  const { slots, slot: chosen, conflict, error } = picking.context;
  const weekStart = parsePlainDate(picking.context.weekStart)!;
  // The coach, type and length change only while no slot is being confirmed or booked.
  const choosing = picking.hasTag('picking');
  const loading = picking.hasTag('loading');
  const days = daysFrom(weekStart, 7)
    .map((day) => ({ day, slots: slots.filter((s) => berlinDate(s.startDate).equals(day)) }))
    .filter((d) => d.slots.length > 0);
  return (
    <section className="booking-step" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('booking.slot')}</h2>
      <div className="field-row">
        {context.canPickCoach ? (
          <CoachPicker
            coaches={context.coaches}
            value={context.coachId}
            disabled={!choosing}
            onChange={(coachId) => coachId && send({ type: 'coach.select', coachId })}
          />
        ) : null}
        {context.kind === 'regular' ? (
          <div className="field">
            <label htmlFor={`${id}-type`}>{t('booking.type')}</label>
            <select
              id={`${id}-type`}
              value={context.appointmentType}
              disabled={!choosing}
              onChange={(e) =>
                send({ type: 'type.select', appointmentType: e.target.value as AppointmentType })
              }
            >
              {REGULAR_TYPES.map((type) => (
                <option key={type} value={type}>
                  {t(APPOINTMENT_TYPE_LABELS[type])}
                </option>
              ))}
            </select>
          </div>
        ) : (
          <div className="field">
            <label htmlFor={`${id}-duration`}>{t('booking.duration')}</label>
            <select
              id={`${id}-duration`}
              value={context.duration}
              disabled={!choosing}
              onChange={(e) => send({ type: 'duration.select', duration: Number(e.target.value) })}
            >
              {ADHOC_DURATIONS.map((d) => (
                <option key={d} value={d}>
                  {t('booking.minutes', { count: d })}
                </option>
              ))}
            </select>
          </div>
        )}
      </div>
      {conflict ? (
        <div className="notice notice-error conflict" role="alert">
          <p>{t('booking.conflict')}</p>
        </div>
      ) : null}
      {picking.hasTag('needQuery') ? <p>{t('booking.chooseCoachFirst')}</p> : null}
      {!picking.hasTag('needQuery') ? (
        <>
          <PeriodNav
            title={weekTitle(weekStart)}
            previousLabel={t('nav.previousWeek')}
            nextLabel={t('nav.nextWeek')}
            disabled={!choosing}
            onPrevious={() => picker.send({ type: 'week.previous' })}
            onNext={() => picker.send({ type: 'week.next' })}
          />
          <div aria-busy={loading} aria-live="polite">
            {picking.hasTag('loadError') ? (
              <RetryNotice error={error} onRetry={() => picker.send({ type: 'retry' })} />
            ) : null}
            {picking.hasTag('slotsReady') && days.length === 0 ? (
              <p>{t('booking.noSlots')}</p>
            ) : null}
            {!loading
              ? days.map(({ day, slots }) => (
                  <fieldset key={day.toString()} className="slot-day">
                    <legend>{dayLabel(day)}</legend>
                    <ul className="slot-list">
                      {slots.map((slot) => (
                        <li key={`${slot.coachId}:${slot.startDate}`}>
                          <SlotButton
                            slot={slot}
                            selected={
                              chosen?.startDate === slot.startDate &&
                              chosen.coachId === slot.coachId
                            }
                            disabled={!picking.can({ type: 'slot.select', slot })}
                            label={t('booking.slotLabel', {
                              day: dayLabel(day),
                              time: timeRange(slot.startDate, slot.endDate),
                            })}
                            onSelect={() => picker.send({ type: 'slot.select', slot })}
                          />
                        </li>
                      ))}
                    </ul>
                  </fieldset>
                ))
              : null}
          </div>
        </>
      ) : null}
    </section>
  );
}

function SlotButton(props: {
  slot: FreeSlot;
  selected: boolean;
  disabled: boolean;
  label: string;
  onSelect: () => void;
}) {
  return (
    <button
      type="button"
      className="button slot"
      aria-pressed={props.selected}
      aria-label={props.label}
      disabled={props.disabled}
      onClick={props.onSelect}
    >
      {berlinTime(props.slot.startDate)}
    </button>
  );
}

function Confirm({
  snapshot,
  picker,
  picking,
}: {
  snapshot: BookingSnapshot;
  picker: SlotPickerActor;
  picking: SlotPickerSnapshot;
}) {
  const { t } = useTranslation('scheduling');
  const id = useId();
  const dayLabel = useDayLabel();
  const { context } = snapshot;
  const booking = picking.hasTag('submitting');
  const slot = picking.context.slot!;
  return (
    <section className="detail-panel booking-confirm" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('booking.confirmTitle')}</h2>
      <dl>
        <dt>{t('booking.client')}</dt>
        <dd>
          {context.client?.firstName} {context.client?.lastName}
        </dd>
        <dt>{t('coach.label')}</dt>
        <dd>
          {slot.coach.firstName} {slot.coach.lastName}
        </dd>
        <dt>{t('booking.type')}</dt>
        <dd>{t(APPOINTMENT_TYPE_LABELS[context.appointmentType])}</dd>
        <dt>{t('booking.when')}</dt>
        <dd>
          {dayLabel(berlinDate(slot.startDate))}, {timeRange(slot.startDate, slot.endDate)}
        </dd>
      </dl>
      {picking.context.error ? (
        <p className="notice notice-error" role="alert">
          {t(errorKey(picking.context.error))}
        </p>
      ) : null}
      <ConfirmActions
        busy={booking}
        label={t('booking.book')}
        busyLabel={t('booking.booking')}
        onConfirm={() => picker.send({ type: 'booking.confirm' })}
        backLabel={t('booking.back')}
        onBack={() => picker.send({ type: 'booking.back' })}
      />
    </section>
  );
}

function Booked({ snapshot, send }: { snapshot: BookingSnapshot; send: BookingActor['send'] }) {
  const { t } = useTranslation('scheduling');
  const dayLabel = useDayLabel();
  const a = snapshot.context.appointment!;
  return (
    <div className="notice notice-success" role="status">
      <h2>{t('booking.bookedTitle')}</h2>
      <p>
        {t('booking.bookedText', {
          client: a.clientName,
          coach: `${a.coach.firstName} ${a.coach.lastName}`,
          when: `${dayLabel(berlinDate(a.startDate))}, ${timeRange(a.startDate, a.endDate)}`,
        })}
      </p>
      <div className="form-actions">
        <button type="button" className="button" onClick={() => send({ type: 'booking.another' })}>
          {t('booking.another')}
        </button>
        <Link href="/calendar" className="button">
          {t('booking.toCalendar')}
        </Link>
      </div>
    </div>
  );
}
