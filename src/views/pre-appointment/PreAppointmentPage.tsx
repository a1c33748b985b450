import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import type { components } from '../../../shared/contract/product';
import { type preAppointmentMachine } from '../../machines/pre-appointment.machine';
import { addDays, type slotPickerMachine } from '../../machines/slot-picker.machine';
import { todayInBerlin } from '../../../shared/time';
import { ClientFormFields } from '../clients/ClientFormFields';
import { formatDate, formatRange, formatTime } from '../staff/format';
import { RecordForm, type FormActor } from '../staff/FormParts';
import { errorKey } from '../staff/ListParts';
import { useFilterOptions } from '../staff/useUrlList';
import { wirePreAppointment } from '../../machines/wiring/pre-appointment';
import { useRouteActor } from '../route-actor';
import { ConfirmActions } from '../parts/ConfirmActions';
import { EventButton } from '../parts/EventButton';
import '../staff/staff.css';

type FreeSlot = components['schemas']['FreeSlot'];
type PreActor = ActorRefFrom<typeof preAppointmentMachine>;
type PickerActor = ActorRefFrom<typeof slotPickerMachine>;

/** `/pre-appointment/new`: a new client and their initial appointment (Erstgespräch). */
export default function PreAppointmentPage() {
  const { t } = useTranslation('staff');
  const [today] = useState(() => todayInBerlin());
  const actorRef = useRouteActor(wirePreAppointment, { input: { today } });
  const step = useSelector(actorRef, (s) =>
    s.hasTag('clientStep') ? 1 : s.hasTag('booked') ? 3 : 2,
  );
  return (
    <article className="staff-page">
      <h1>{t('preAppointment.title')}</h1>
      <p className="lead">{t('preAppointment.step', { step, steps: 3 })}</p>
      {step === 1 ? <ClientStep actorRef={actorRef} /> : null}
      {step === 2 ? <SlotStep actorRef={actorRef} /> : null}
      {step === 3 ? <Booked actorRef={actorRef} /> : null}
    </article>
  );
}

function ClientStep({ actorRef }: { actorRef: PreActor }) {
  const { t } = useTranslation('staff');
  const form = useSelector(actorRef, (s) => s.children.clientForm) as FormActor | undefined;
  const catalog = useFilterOptions(false);
  if (!form) return null;
  return (
    <>
      <h2>{t('preAppointment.clientStep')}</h2>
      <RecordForm
        actorRef={form}
        label={t('preAppointment.clientStep')}
        submitLabel={t('preAppointment.next')}
      >
        <ClientFormFields actorRef={form} coaches={[]} catalog={catalog} full={false} />
      </RecordForm>
    </>
  );
}

function SlotStep({ actorRef }: { actorRef: PreActor }) {
  const client = useSelector(actorRef, (s) => s.context.client);
  const picker = useSelector(actorRef, (s) => s.children.slotPicker) as PickerActor | undefined;
  return picker ? <SlotPicking picker={picker} client={client} /> : null;
}

function SlotPicking({
  picker,
  client,
}: {
  picker: PickerActor;
  client: { firstName: string; lastName: string } | null;
}) {
  const { t } = useTranslation('staff');
  const state = useSelector(picker, (s) => s);
  const { slots, slot, conflict, error } = state.context;
  const weekStart = state.context.weekStart!;
  const send = picker.send;
  const confirming = state.hasTag('confirm');
  const byDay = new Map<string, FreeSlot[]>();
  for (const s of slots) {
    const day = formatDate(s.startDate);
    byDay.set(day, [...(byDay.get(day) ?? []), s]);
  }
  return (
    <>
      <h2>
        {t('preAppointment.slotStep', {
          name: `${client?.firstName ?? ''} ${client?.lastName ?? ''}`,
        })}
      </h2>
      {confirming && slot ? (
        <div className="confirm-box" role="alertdialog" aria-labelledby="book-question">
          <p id="book-question">
            <strong>
              {t('preAppointment.confirmQuestion', {
                when: formatRange(slot.startDate, slot.endDate),
                coach: `${slot.coach.firstName} ${slot.coach.lastName}`,
              })}
            </strong>
          </p>
          {error ? (
            <p className="field-error" role="alert">
              {t(errorKey(error))}
            </p>
          ) : null}
          <ConfirmActions
            busy={state.hasTag('submitting')}
            label={t('preAppointment.book')}
            busyLabel={t('preAppointment.booking')}
            onConfirm={() => send({ type: 'booking.confirm' })}
            backLabel={t('preAppointment.otherTime')}
            onBack={() => send({ type: 'booking.back' })}
          />
        </div>
      ) : (
        <>
          {conflict ? (
            <p className="notice notice-error" role="alert">
              {t('errors.slotTaken')}
            </p>
          ) : null}
          <div className="page-actions">
            <EventButton state={state} send={send} event={{ type: 'week.previous' }}>
              {t('preAppointment.previousWeek')}
            </EventButton>
            <span>
              {t('preAppointment.week', {
                from: formatDate(weekStart),
                to: formatDate(addDays(weekStart, 6)),
              })}
            </span>
            <button type="button" className="button" onClick={() => send({ type: 'week.next' })}>
              {t('preAppointment.nextWeek')}
            </button>
          </div>
          {state.hasTag('busy') ? (
            <p className="list-progress" role="status">
              <span className="spinner" aria-hidden="true" />
              {t('list.loading')}
            </p>
          ) : null}
          {state.hasTag('loadError') ? (
            <div className="notice notice-error" role="alert">
              <p>{t(errorKey(error))}</p>
              <button type="button" className="button" onClick={() => send({ type: 'retry' })}>
                {t('list.retry')}
              </button>
            </div>
          ) : null}
          {state.hasTag('slotsReady') && slots.length === 0 ? (
            <p className="list-empty">{t('preAppointment.noSlots')}</p>
          ) : null}
          {state.hasTag('slotsReady')
            ? [...byDay].map(([day, daySlots]) => (
                <section key={day} aria-label={day}>
                  <h3 className="slot-day">{day}</h3>
                  <ul className="slot-list">
                    {daySlots.map((s) => (
                      <li key={s.startDate}>
                        <button
                          type="button"
                          className="button"
                          aria-label={t('preAppointment.slotLabel', {
                            when: formatRange(s.startDate, s.endDate),
                          })}
                          onClick={() => send({ type: 'slot.select', slot: s })}
                        >
                          {formatTime(s.startDate)}
                        </button>
                      </li>
                    ))}
                  </ul>
                </section>
              ))
            : null}
        </>
      )}
    </>
  );
}

function Booked({ actorRef }: { actorRef: PreActor }) {
  const { t } = useTranslation('staff');
  const { appointment, client } = useSelector(actorRef, (s) => s.context);
  if (!appointment || !client) return null;
  return (
    <div className="notice notice-success" role="status">
      <h2>{t('preAppointment.doneTitle')}</h2>
      <p>
        {t('preAppointment.doneText', {
          name: `${client.firstName} ${client.lastName}`,
          when: formatRange(appointment.startDate, appointment.endDate),
        })}
      </p>
      <div className="page-actions">
        <Link href={`/appointments/${appointment.id}`} className="button">
          {t('preAppointment.openAppointment')}
        </Link>
        <Link href={`/clients/${client.id}`} className="button">
          {t('preAppointment.openClient')}
        </Link>
      </div>
    </div>
  );
}
