import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { z } from 'zod';
import type { components } from '../../../shared/contract/product';
import { OPEN_CLIENTS_HREF } from './open-clients';
import { tKey } from '../../i18n/keys';
import { loadClientsPageActor } from '../../machines/actors/staff/clients';
import { isoDate, oneOf, text, wholeNumber, yesNo } from '../../machines/list.machine';
import { ageOf, formatDate } from '../staff/format';
import {
  CLIENT_FILTER_KEYS,
  ClientFilterFields,
  FilterForm,
  FilterInput,
  FilterSelect,
  FilterYesNo,
} from '../staff/FilterParts';
import { StaffListPage } from '../staff/ActionLinks';
import { type Column, DataTable } from '../staff/DataTable';
import { useFilteredList } from '../staff/useUrlList';

type Client = components['schemas']['Client'];

/**
 * The filters of `/clients` as URL keys (as the API names them); `createdAfter` is a Berlin day.
 */
export const CLIENT_FILTERS = z.object({
  search: text(100),
  phoneNumber: text(40),
  createdAfter: isoDate,
  hasRejected: yesNo,
  minFollowupAppointments: wholeNumber(0, 1000),
  ...CLIENT_FILTER_KEYS,
  showClosedSessions: yesNo,
  initialAppointment: yesNo,
  firstAppointment: yesNo,
  followupAppointment: yesNo,
  sortBy: oneOf(['createdAt', 'lastName', 'firstName', 'yearOfBirth', 'updatedAt']),
  sortOrder: oneOf(['asc', 'desc']),
});

const SORT_LABELS = {
  lastName: tKey('staff:clients.sortFields.lastName'),
  firstName: tKey('staff:clients.sortFields.firstName'),
  yearOfBirth: tKey('staff:clients.sortFields.yearOfBirth'),
  updatedAt: tKey('staff:clients.sortFields.updatedAt'),
} as const;

/** The "has had …" and research filters, in the order the form shows them. */
const YES_NO_FILTERS = [
  ['initialAppointment', tKey('staff:clients.filters.initialAppointment')],
  ['firstAppointment', tKey('staff:clients.filters.firstAppointment')],
  ['followupAppointment', tKey('staff:clients.filters.followupAppointment')],
  ['participatingInResearch', tKey('staff:clients.filters.research')],
] as const;

const COLUMNS: readonly Column<Client>[] = [
  {
    header: tKey('staff:clients.columns.name'),
    sortKey: 'lastName',
    cell: (c) => (
      <Link href={`/clients/${c.id}`}>
        {c.lastName}, {c.firstName}
      </Link>
    ),
  },
  { header: tKey('staff:clients.columns.age'), cell: (c) => ageOf(c.yearOfBirth) ?? '–' },
  {
    header: tKey('staff:clients.columns.contact'),
    cell: (c) => [c.email, c.telephone].filter(Boolean).join(' · ') || '–',
  },
  { header: tKey('staff:clients.columns.insurer'), cell: (c) => c.insurer ?? '–' },
  {
    header: tKey('staff:clients.columns.coach'),
    cell: (c) => (c.coachedBy ? `${c.coachedBy.firstName} ${c.coachedBy.lastName}` : '–'),
  },
  {
    header: tKey('staff:clients.columns.createdAt'),
    sortKey: 'createdAt',
    cell: (c) => formatDate(c.createdAt),
  },
  {
    header: tKey('staff:clients.columns.sessions'),
    cell: (c, t) =>
      c.sessionsClosedOn
        ? t('clients.sessionsClosedOn', { date: formatDate(c.sessionsClosedOn) })
        : t('clients.sessionsOpen'),
  },
];

/** `/clients`: the clients the person may see (coaches: their own), filtered, sorted, paged. */
export default function ClientsListPage() {
  const { t } = useTranslation('staff');
  const { manager, actorRef, options, f } = useFilteredList({
    path: '/clients',
    filters: CLIENT_FILTERS,
    loadPage: loadClientsPageActor,
    sortKeys: { by: 'sortBy', order: 'sortOrder' },
  });

  return (
    <StaffListPage
      title={t('clients.title')}
      links={
        manager
          ? [
              { href: '/clients/new', label: t('clients.new'), primary: true },
              { href: '/pre-appointment/new', label: t('clients.preAppointment') },
              { href: OPEN_CLIENTS_HREF, label: t('clients.openClients') },
            ]
          : []
      }
    >
      <DataTable
        actorRef={actorRef}
        columns={COLUMNS}
        label={t('clients.results')}
        emptyText={t('clients.empty')}
        defaultSort={{ by: 'createdAt', order: 'desc' }}
        filters={
          <FilterForm actorRef={actorRef}>
            <FilterInput
              name="search"
              type="search"
              label={t('clients.filters.search')}
              value={f('search')}
              maxLength={100}
            />
            <FilterInput
              name="phoneNumber"
              type="tel"
              label={t('clients.filters.phoneNumber')}
              value={f('phoneNumber')}
              maxLength={40}
            />
            <FilterInput
              name="createdAfter"
              type="date"
              label={t('clients.filters.createdAfter')}
              value={f('createdAfter')}
            />
            <FilterYesNo
              name="hasRejected"
              label={t('clients.filters.hasRejected')}
              value={f('hasRejected')}
            />
            <FilterInput
              name="minFollowupAppointments"
              type="number"
              min={0}
              max={1000}
              label={t('clients.filters.minFollowupAppointments')}
              value={f('minFollowupAppointments')}
            />
            {YES_NO_FILTERS.map(([name, label]) => (
              <FilterYesNo key={name} name={name} label={t(label)} value={f(name)} />
            ))}
            <ClientFilterFields value={f} options={options} manager={manager} />
            <FilterSelect
              name="showClosedSessions"
              label={t('clients.filters.showClosedSessions')}
              value={f('showClosedSessions')}
              anyLabel={t('clients.filters.onlyOpen')}
              options={[{ value: 'true', label: t('clients.filters.includeClosed') }]}
            />
            <FilterSelect
              name="sortBy"
              label={t('clients.filters.sortBy')}
              value={f('sortBy')}
              anyLabel={t('clients.sortFields.createdAt')}
              options={Object.entries(SORT_LABELS).map(([value, key]) => ({
                value,
                label: t(key),
              }))}
            />
            <FilterSelect
              name="sortOrder"
              label={t('clients.filters.sortOrder')}
              value={f('sortOrder')}
              anyLabel={t('list.descending')}
              options={[{ value: 'asc', label: t('list.ascending') }]}
            />
          </FilterForm>
        }
      />
    </StaffListPage>
  );
}
