import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { z } from 'zod';
import type { components } from '../../../shared/contract/product';
import { tKey } from '../../i18n/keys';
import { loadCampaignsPageActor, loadInsurersPageActor } from '../../machines/actors/staff/catalog';
import { text, yesNo } from '../../machines/list.machine';
import { StaffListPage } from '../staff/ActionLinks';
import { type Column, DataTable } from '../staff/DataTable';
import { FilterForm, FilterInput, FilterSelect } from '../staff/FilterParts';
import { formatDate } from '../staff/format';
import { useUrlList } from '../staff/useUrlList';

type Insurer = components['schemas']['Insurer'];
type Campaign = components['schemas']['Campaign'];

/** The filters of both lists as URL keys. */
export const CATALOG_FILTERS = z.object({ search: text(100), active: yesNo });

const status: Column<{ active: boolean }> = {
  header: tKey('catalog:columns.status'),
  cell: (row, t) => (row.active ? t('catalog:active') : t('catalog:inactive')),
  width: 'narrow',
};

const INSURER_COLUMNS: readonly Column<Insurer>[] = [
  {
    header: tKey('catalog:insurers.columns.name'),
    cell: (i) => <Link href={`/admin/insurers/${i.id}/edit`}>{i.name}</Link>,
    width: 'wide',
  },
  { header: tKey('catalog:insurers.columns.ikNumber'), cell: (i) => i.ikNumber },
  status,
];

const CAMPAIGN_COLUMNS: readonly Column<Campaign>[] = [
  {
    header: tKey('catalog:campaigns.columns.name'),
    cell: (c) => <Link href={`/admin/campaigns/${c.id}/edit`}>{c.name}</Link>,
    width: 'wide',
  },
  { header: tKey('catalog:campaigns.columns.code'), cell: (c) => <code>{c.code}</code> },
  {
    header: tKey('catalog:campaigns.columns.period'),
    cell: (c, t) =>
      c.startsAt || c.endsAt
        ? t('catalog:campaigns.period', {
            from: c.startsAt ? formatDate(c.startsAt) : '…',
            to: c.endsAt ? formatDate(new Date(Date.parse(c.endsAt) - 1).toISOString()) : '…',
          })
        : '–',
  },
  status,
];

/** One maintained list: search, aktiv/inaktiv, the shared table and pager, "neu" for admins. */
function CatalogList<Row extends { id: string }>({
  kind,
  columns,
  loadPage,
}: {
  kind: 'insurers' | 'campaigns';
  columns: readonly Column<Row>[];
  loadPage: typeof loadInsurersPageActor;
}) {
  const { t } = useTranslation('catalog');
  const actorRef = useUrlList({ path: `/admin/${kind}`, filters: CATALOG_FILTERS, loadPage });
  const filters = useSelector(actorRef, (s) => s.context.query.filters);
  return (
    <StaffListPage
      title={t(`${kind}.title`)}
      links={[{ href: `/admin/${kind}/new`, label: t(`${kind}.new`), primary: true }]}
    >
      <p>{t(`${kind}.intro`)}</p>
      <DataTable
        actorRef={actorRef}
        columns={columns}
        label={t(`${kind}.results`)}
        emptyText={t(`${kind}.empty`)}
        filters={
          <FilterForm actorRef={actorRef}>
            <FilterInput
              name="search"
              type="search"
              label={t(`${kind}.search`)}
              value={filters.search}
              maxLength={100}
            />
            <FilterSelect
              name="active"
              label={t('status')}
              value={filters.active}
              options={[
                { value: 'true', label: t('active') },
                { value: 'false', label: t('inactive') },
              ]}
            />
          </FilterForm>
        }
      />
    </StaffListPage>
  );
}

/** `/admin/insurers` ("Krankenkassen", ADMIN). */
export function InsurersListPage() {
  return <CatalogList kind="insurers" columns={INSURER_COLUMNS} loadPage={loadInsurersPageActor} />;
}

/** `/admin/campaigns` ("Kampagnen", ADMIN). */
export function CampaignsListPage() {
  return (
    <CatalogList kind="campaigns" columns={CAMPAIGN_COLUMNS} loadPage={loadCampaignsPageActor} />
  );
}
