import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { CLIENT_HOME } from '../../lib/client-pages';
import { coachChange } from '../../machines/client-reschedule.machine';
import { berlinClock } from '../../lib/client-slots';
import { wireClientReschedule } from '../../machines/wiring/client-reschedule';
import { useRouteMachine } from '../route-actor';
import { ConfirmActions } from '../parts/ConfirmActions';
import { usePickerState, type SlotPickerActor } from '../appointments/slot-picker';
import {
  AppointmentFacts,
  ClientGate,
  ClientPage,
  ErrorNotice,
  formatLongDay,
  SlotPicker,
} from './parts';

const nameOf = (p: { firstName: string; lastName: string }) => `${p.firstName} ${p.lastName}`;

/** `/client-signup/reschedule-appointment/{appointmentId}`. */
export default function ReschedulePage({ params }: { params?: { appointmentId?: string } }) {
  const { t } = useTranslation('client');
  return (
    <ClientPage title={t('reschedule.title')}>
      <ClientGate>
        <Reschedule appointmentId={params?.appointmentId ?? ''} />
      </ClientGate>
    </ClientPage>
  );
}

function Reschedule({ appointmentId }: { appointmentId: string }) {
  const { t } = useTranslation('client');
  const [state, send] = useRouteMachine(wireClientReschedule, {
    input: { appointmentId, now: () => Date.now() },
  });
  const { appointment, error } = state.context;
  const pickerRef = state.children.slotPicker as SlotPickerActor | undefined;
  const picker = usePickerState(pickerRef);
  const facts = appointment ? (
    <AppointmentFacts
      startDate={appointment.startDate}
      endDate={appointment.endDate}
      coachName={nameOf(appointment.coach)}
    />
  ) : null;
  const back = (
    <Link href={CLIENT_HOME} className="button">
      {t('actions.toOverview')}
    </Link>
  );

  if (state.hasTag('loading') || picker?.hasTag('loading'))
    return <p role="status">{t('slots.loading')}</p>;
  if (state.hasTag('loadError')) {
    return <ErrorNotice code={error?.code ?? 'unknown'} onRetry={() => send({ type: 'retry' })} />;
  }
  if (state.hasTag('notFound'))
    return (
      <div className="notice">
        <p>{t('errors.not_found')}</p>
        {back}
      </div>
    );
  if (state.hasTag('cancelled')) {
    return (
      <div className="notice">
        <p>{t('reschedule.cancelled')}</p>
        {back}
      </div>
    );
  }
  if (state.hasTag('tooLate')) {
    return (
      <div className="notice notice-error" role="alert">
        {facts}
        <p>{t('reschedule.tooLate')}</p>
        {back}
      </div>
    );
  }
  if (state.hasTag('moved')) {
    return (
      <section className="client-success" aria-labelledby="client-moved-title">
        <h2 id="client-moved-title">{t('reschedule.movedTitle')}</h2>
        {facts}
        <p>{t('reschedule.movedText')}</p>
        {back}
      </section>
    );
  }
  if (!picker || !pickerRef) return null;
  const { slots, day, slot, conflict } = picker.context;
  const pick = pickerRef.send;
  if (picker.hasTag('loadError')) {
    return (
      <ErrorNotice
        code={picker.context.error?.code ?? 'unknown'}
        onRetry={() => pick({ type: 'retry' })}
      />
    );
  }
  const busy = picker.hasTag('busy');
  if (picker.hasTag('confirm')) {
    // What the appointment will be: the new time with the coach the move gets.
    const change = coachChange({ appointment, slot });
    const error = picker.context.error;
    return (
      <section aria-labelledby="client-move-title">
        <h2 id="client-move-title">{t('reschedule.confirmTitle')}</h2>
        <p>
          {t('reschedule.confirmText', {
            day: formatLongDay(slot!.startDate),
            time: berlinClock(slot!.startDate),
          })}
        </p>
        <AppointmentFacts
          startDate={slot!.startDate}
          endDate={slot!.endDate}
          coachName={nameOf(slot!.coach)}
        />
        {change ? (
          <p className="notice" role="note">
            {t('reschedule.coachChange', { from: nameOf(change.from), to: nameOf(change.to) })}
          </p>
        ) : null}
        {error ? <ErrorNotice code={error.code} /> : null}
        <ConfirmActions
          busy={busy}
          label={t('reschedule.confirm')}
          busyLabel={t('reschedule.moving')}
          onConfirm={() => pick({ type: 'booking.confirm' })}
          backLabel={t('actions.back')}
          onBack={() => pick({ type: 'booking.back' })}
        />
      </section>
    );
  }
  return (
    <>
      <h2>{t('reschedule.currentTitle')}</h2>
      {facts}
      {conflict ? (
        <p className="notice notice-error" role="alert">
          {t('selection.conflict.slot_taken')}
        </p>
      ) : null}
      {slots.length === 0 ? (
        <p className="notice">{t('selection.empty')}</p>
      ) : (
        <SlotPicker
          slots={slots}
          day={day}
          onDay={(d) => pick({ type: 'day.select', day: d })}
          onSlot={(s) => pick({ type: 'slot.select', slot: s })}
        />
      )}
      {back}
    </>
  );
}
