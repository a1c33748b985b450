import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { z } from 'zod';
import { tKey } from '../../i18n/keys';
import { loadEventsPageActor, type EventRow } from '../../machines/actors/staff/events';
import { type ListFilters, oneOf, uuid, yesNo } from '../../machines/list.machine';
import type { FilterOptions } from '../../machines/staff-filter-options.machine';
import { APPOINTMENT_TYPE_LABELS } from '../appointments-list/parts';
import { StaffListPage } from '../staff/ActionLinks';
import { type Column, DataTable } from '../staff/DataTable';
import { wireClientPicker } from '../../machines/wiring/client-picker';
import { FilterForm, FilterSelect } from '../staff/FilterParts';
import { RecordPickerField } from '../staff/RecordPickerField';
import { formatDateTime } from '../staff/format';
import type { ListActor } from '../staff/ListParts';
import { useFilterOptions, useUrlList } from '../staff/useUrlList';
import { eventActionLabel } from './actions';
import './events.css';

/**
 * The filters of `/events` as URL keys: `view` picks the activity feed (default) or the audit
 * trail; client, coach and appointment narrow both; `showAllEvents` only the feed.
 */
export const EVENT_FILTERS = z.object({
  view: oneOf(['audit']),
  client: uuid,
  coach: uuid,
  appointment: uuid,
  showAllEvents: yesNo,
});

/**
 * The columns read the filters (the "only this client" button, the "important" mark) and the
 * coach names of the filter options, so they are built per render.
 */
function eventColumns(
  actorRef: ListActor,
  filters: ListFilters,
  coaches: FilterOptions['coaches'],
): Column<EventRow>[] {
  const coachName = (id: string | null) =>
    id ? (coaches.find((c) => c.id === id)?.name ?? null) : null;
  return [
    { header: tKey('staff:eventList.columns.when'), cell: (e) => formatDateTime(e.occurredAt) },
    {
      header: tKey('staff:eventList.columns.what'),
      cell: (e, t) => (
        <>
          {eventActionLabel(t, e.kind === 'feed' ? e.type : e.action)}
          {/* Only the full feed mixes important and other events. */}
          {e.kind === 'feed' && e.important && filters.showAllEvents === 'true'
            ? ` (${t('eventList.important')})`
            : ''}
        </>
      ),
    },
    {
      header: tKey('staff:eventList.columns.who'),
      cell: (e, t) =>
        e.actor ? `${e.actor.email} (${t(`roles.${e.actor.role}`)})` : t('eventList.system'),
    },
    {
      header: tKey('staff:eventList.columns.about'),
      cell: (e, t) => (
        <ul className="plain-list">
          {e.clientId ? (
            <li>
              <Link href={`/clients/${e.clientId}`}>
                {e.subject.clientName ?? t('eventList.client')}
              </Link>{' '}
              {filters.client === e.clientId ? null : (
                <button
                  type="button"
                  className="button-link"
                  onClick={() =>
                    actorRef.send({ type: 'list.filter', filters: { client: e.clientId! } })
                  }
                >
                  {t('eventList.onlyClient')}
                </button>
              )}
            </li>
          ) : null}
          {e.appointmentId ? (
            <li>
              <Link href={`/appointments/${e.appointmentId}`}>
                {e.subject.appointment
                  ? t('eventList.appointmentAt', {
                      when: formatDateTime(e.subject.appointment.startDate),
                      type: t(APPOINTMENT_TYPE_LABELS[e.subject.appointment.appointmentType]),
                    })
                  : t('eventList.appointment')}
              </Link>{' '}
              {filters.appointment === e.appointmentId ? null : (
                <button
                  type="button"
                  className="button-link"
                  onClick={() =>
                    actorRef.send({
                      type: 'list.filter',
                      filters: { appointment: e.appointmentId! },
                    })
                  }
                >
                  {t('eventList.onlyAppointment')}
                </button>
              )}
            </li>
          ) : null}
          {e.subject.invoice ? (
            <li>
              <Link href={`/billing/invoices/${e.subject.invoice.id}`}>
                {t('eventList.invoiceNumber', { number: e.subject.invoice.number })}
              </Link>
            </li>
          ) : null}
          {e.coachId ? (
            <li>
              <Link href={`/coaches/${e.coachId}`}>
                {coachName(e.coachId) ?? t('eventList.coach')}
              </Link>
            </li>
          ) : null}
        </ul>
      ),
    },
  ];
}

/**
 * An appointment is chosen from a row ("Nur dieser Termin"), not typed: the form keeps it as a
 * hidden field and offers to open or drop it.
 */
function AppointmentFilter({ actorRef, id }: { actorRef: ListActor; id: string }) {
  const { t } = useTranslation('staff');
  return (
    <div className="field">
      <strong>{t('eventList.filters.appointment')}</strong>
      <input type="hidden" name="appointment" value={id} />
      <p>
        {t('eventList.appointmentChosen')} (
        <Link href={`/appointments/${id}`}>{t('eventList.appointmentOpen')}</Link>){' '}
        <button
          type="button"
          className="button-link"
          onClick={() =>
            actorRef.send({ type: 'list.filter', filters: { appointment: undefined } })
          }
        >
          {t('eventList.appointmentRemove')}
        </button>
      </p>
    </div>
  );
}

/** `/events` (admins and onboarding managers): what happened, newest first, in German. */
export default function EventsListPage() {
  const { t } = useTranslation('staff');
  const actorRef = useUrlList({
    path: '/events',
    filters: EVENT_FILTERS,
    loadPage: loadEventsPageActor,
  });
  const options = useFilterOptions(true);
  const filters = useSelector(actorRef, (s) => s.context.query.filters);

  return (
    <StaffListPage title={t('eventList.title')}>
      <DataTable
        actorRef={actorRef}
        columns={eventColumns(actorRef, filters, options.coaches)}
        label={t('eventList.results')}
        emptyText={t('eventList.empty')}
        filters={
          <>
            <FilterForm actorRef={actorRef}>
              <FilterSelect
                name="view"
                label={t('eventList.filters.view')}
                value={filters.view}
                anyLabel={t('eventList.filters.feed')}
                options={[{ value: 'audit', label: t('eventList.filters.audit') }]}
              />
              <FilterSelect
                name="coach"
                label={t('eventList.filters.coach')}
                value={filters.coach}
                options={options.coaches.map((c) => ({ value: c.id, label: c.name }))}
              />
              <RecordPickerField
                name="client"
                label={t('eventList.filters.client')}
                value={filters.client}
                wire={wireClientPicker}
              />
              {filters.appointment ? (
                <AppointmentFilter actorRef={actorRef} id={filters.appointment} />
              ) : null}
              {filters.view === 'audit' ? null : (
                <FilterSelect
                  name="showAllEvents"
                  label={t('eventList.filters.showAllEvents')}
                  value={filters.showAllEvents === 'true' ? 'true' : undefined}
                  anyLabel={t('eventList.filters.importantOnly')}
                  options={[{ value: 'true', label: t('eventList.filters.allEvents') }]}
                />
              )}
            </FilterForm>
          </>
        }
      />
    </StaffListPage>
  );
}
