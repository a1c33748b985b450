import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { CLIENT_HOME } from '../../lib/client-pages';
import { berlinClock } from '../../lib/client-slots';
import { wireAppointmentSelection } from '../../machines/wiring/appointment-selection';
import { useRouteMachine } from '../route-actor';
import { ConfirmActions } from '../parts/ConfirmActions';
import { usePickerState, type SlotPickerActor } from '../appointments/slot-picker';
import {
  AppointmentFacts,
  ClientGate,
  ClientPage,
  ErrorNotice,
  formatLongDay,
  LinkNotice,
  SlotPicker,
} from './parts';

/**
 * `/client-signup/appointment-selection`: the initial appointment calendar; once booked, the
 * page's heading says so ("Ihr Erstgespräch ist gebucht", not the calendar's "… wählen").
 */
export default function AppointmentSelectionPage() {
  const { t } = useTranslation('client');
  return (
    <ClientGate
      frame={(children) => <ClientPage title={t('selection.title')}>{children}</ClientPage>}
    >
      <Selection />
    </ClientGate>
  );
}

function Selection() {
  const { t } = useTranslation('client');
  const [state, send] = useRouteMachine(wireAppointmentSelection, {
    input: { now: () => Date.now() },
  });
  const { appointment } = state.context;

  if (state.hasTag('booked') && appointment) {
    return (
      <ClientPage title={t('booked.title')}>
        <section className="client-success" aria-label={t('booked.title')}>
          <AppointmentFacts
            startDate={appointment.startDate}
            endDate={appointment.endDate}
            coachName={`${appointment.coach.firstName} ${appointment.coach.lastName}`}
          />
          <p className="client-zone-note">{t('slots.zoneNote')}</p>
          <div className="form-actions">
            <button
              type="button"
              className="button button-primary"
              onClick={() => send({ type: 'calendar.download' })}
            >
              {t('booked.addToCalendar')}
            </button>
          </div>
          <h3>{t('booked.nextTitle')}</h3>
          <ul className="client-next">
            <li>{t('booked.nextMail')}</li>
            <li>{t('booked.nextMeeting', { code: appointment.meetingCodeClient })}</li>
            <li>{t('booked.nextChange')}</li>
          </ul>
          <Link href={CLIENT_HOME}>{t('booked.toOverview')}</Link>
        </section>
      </ClientPage>
    );
  }
  return (
    <ClientPage title={t('selection.title')}>
      {state.hasTag('alreadyBooked') ? (
        <LinkNotice
          text={t('selection.alreadyBooked')}
          href={CLIENT_HOME}
          label={t('selection.toOverview')}
        />
      ) : state.hasTag('notClient') ? (
        <LinkNotice text={t('gate.noClient')} href="/client-signup" label={t('gate.toSignup')} />
      ) : (
        <Picking actorRef={state.children.slotPicker} />
      )}
    </ClientPage>
  );
}

/** The picker's screens: loading, a failed load, no free slot, the days and times, the confirmation. */
function Picking({ actorRef }: { actorRef: SlotPickerActor | undefined }) {
  const { t } = useTranslation('client');
  const state = usePickerState(actorRef);
  if (!actorRef || !state) return null;
  const send = actorRef.send;
  const { slots, day, slot, conflict, error } = state.context;
  const busy = state.hasTag('busy');
  if (state.hasTag('loadError')) {
    return <ErrorNotice code={error?.code ?? 'unknown'} onRetry={() => send({ type: 'retry' })} />;
  }
  if (state.hasTag('slotsReady') && slots.length === 0) {
    return (
      <div className="notice">
        <p>{t('selection.empty')}</p>
        <button type="button" className="button" onClick={() => send({ type: 'retry' })}>
          {t('actions.reload')}
        </button>
      </div>
    );
  }
  if (state.hasTag('confirm')) {
    return (
      <section aria-labelledby="client-confirm-title">
        <p className="client-step">{t('signup.stepConfirm')}</p>
        <h2 id="client-confirm-title">{t('selection.confirmTitle')}</h2>
        <p>
          {t('selection.confirmText', {
            day: formatLongDay(slot!.startDate),
            time: berlinClock(slot!.startDate),
          })}
        </p>
        <p className="client-zone-note">{t('slots.zoneNote')}</p>
        {error ? <ErrorNotice code={error.code} /> : null}
        <ConfirmActions
          busy={busy}
          label={t('selection.confirm')}
          busyLabel={t('selection.booking')}
          onConfirm={() => send({ type: 'booking.confirm' })}
          backLabel={t('actions.back')}
          onBack={() => send({ type: 'booking.back' })}
        />
      </section>
    );
  }
  return (
    <>
      <p className="client-step">{t('signup.stepSlot')}</p>
      <p>{t('selection.intro')}</p>
      {conflict ? (
        <p className="notice notice-error" role="alert">
          {t(`selection.conflict.${conflict}`)}
        </p>
      ) : null}
      {busy ? (
        <p role="status">{t('slots.loading')}</p>
      ) : (
        <SlotPicker
          slots={slots}
          day={day}
          onDay={(d) => send({ type: 'day.select', day: d })}
          onSlot={(s) => send({ type: 'slot.select', slot: s })}
        />
      )}
    </>
  );
}
