import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import type { ApiClient } from '../../api/client';
import { loadAppointmentsPageActor } from '../../machines/actors/staff/appointments';
import { APPOINTMENT_TYPES } from '../../../shared/contract/enums';
import { isoDate, oneOf, uuid, yesNo } from '../../machines/list.machine';
import {
  ActiveFilter,
  CLIENT_FILTER_KEYS,
  ClientFilterFields,
  FilterForm,
  FilterInput,
  FilterSelect,
  FilterYesNo,
  KeptFilters,
} from '../staff/FilterParts';
import { StaffListPage } from '../staff/ActionLinks';
import { DataTable } from '../staff/DataTable';
import { useFilteredList } from '../staff/useUrlList';
import { APPOINTMENT_COLUMNS, APPOINTMENT_TYPE_LABELS } from './parts';

/**
 * The filters of `/appointments` as URL keys (the specification's entities and list of calls);
 * `from`/`to` are Berlin days.
 */
export const APPOINTMENT_FILTERS = z.object({
  appointmentType: oneOf(APPOINTMENT_TYPES),
  cancelled: yesNo,
  noShow: yesNo,
  ...CLIENT_FILTER_KEYS,
  clientId: uuid,
  from: isoDate,
  to: isoDate,
  sortDirection: oneOf(['asc', 'desc']),
  /** "Vergangene anzeigen": without it (and without a day) the list starts at today. */
  past: yesNo,
});

const loadFromToday = (api: ApiClient) => loadAppointmentsPageActor(api, {}, 'today');

/** `/appointments`: every appointment the person may see, filtered, sorted and paged. */
export default function AppointmentsListPage() {
  const { t } = useTranslation('staff');
  const { manager, actorRef, options, filters, f } = useFilteredList({
    path: '/appointments',
    filters: APPOINTMENT_FILTERS,
    loadPage: loadFromToday,
    sortKeys: { order: 'sortDirection' },
  });

  return (
    <StaffListPage
      title={t('appointments.title')}
      links={[
        { href: '/appointments/new', label: t('appointments.new'), primary: true },
        { href: '/cancel-appointment', label: t('appointments.cancelPicker') },
      ]}
    >
      <DataTable
        actorRef={actorRef}
        columns={APPOINTMENT_COLUMNS}
        label={t('appointments.results')}
        emptyText={t('appointments.empty')}
        defaultSort={{ order: 'asc' }}
        filters={
          <>
            {filters.clientId ? (
              <ActiveFilter
                label={t('appointments.filters.forClient')}
                buttonLabel={t('appointments.filters.removeClient')}
                onClick={() =>
                  actorRef.send({ type: 'list.filter', filters: { clientId: undefined } })
                }
              />
            ) : null}
            {filters.from || filters.to ? null : (
              <ActiveFilter
                label={
                  filters.past === 'true'
                    ? t('appointments.filters.withPast')
                    : t('appointments.filters.fromToday')
                }
                buttonLabel={
                  filters.past === 'true'
                    ? t('appointments.filters.onlyFromToday')
                    : t('appointments.filters.showPast')
                }
                onClick={() =>
                  actorRef.send({
                    type: 'list.filter',
                    filters: { past: filters.past === 'true' ? undefined : 'true' },
                  })
                }
              />
            )}
            <FilterForm actorRef={actorRef}>
              <FilterInput
                name="from"
                type="date"
                label={t('appointments.filters.from')}
                value={f('from')}
              />
              <FilterInput
                name="to"
                type="date"
                label={t('appointments.filters.to')}
                value={f('to')}
              />
              <FilterSelect
                name="appointmentType"
                label={t('appointments.filters.type')}
                value={f('appointmentType')}
                options={APPOINTMENT_TYPES.map((type) => ({
                  value: type,
                  label: t(APPOINTMENT_TYPE_LABELS[type]),
                }))}
              />
              <FilterYesNo
                name="cancelled"
                label={t('appointments.filters.cancelled')}
                value={f('cancelled')}
              />
              <FilterYesNo
                name="noShow"
                label={t('appointments.filters.noShow')}
                value={f('noShow')}
              />
              <FilterYesNo
                name="participatingInResearch"
                label={t('appointments.filters.research')}
                value={f('participatingInResearch')}
              />
              <ClientFilterFields value={f} options={options} manager={manager} />
              <FilterSelect
                name="sortDirection"
                label={t('appointments.filters.sort')}
                value={f('sortDirection')}
                anyLabel={t('appointments.filters.sortAsc')}
                options={[{ value: 'desc', label: t('appointments.filters.sortDesc') }]}
              />
              <KeptFilters filters={filters} names={['clientId', 'past']} />
            </FilterForm>
          </>
        }
      />
    </StaffListPage>
  );
}
