import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { z } from 'zod';
import type { components } from '../../../shared/contract/product';
import { tKey } from '../../i18n/keys';
import { loadCoachesPageActor } from '../../machines/actors/staff/coaches';
import { coachName } from '../../forms/coach-staff-form';
import { text, yesNo } from '../../machines/list.machine';
import { StaffListPage } from '../staff/ActionLinks';
import { type Column, DataTable } from '../staff/DataTable';
import { FilterForm, FilterInput, FilterSelect } from '../staff/FilterParts';
import { useUrlList } from '../staff/useUrlList';

type Coach = components['schemas']['Coach'];

/** The filters of `/coaches` as URL keys. */
export const COACH_FILTERS = z.object({ search: text(100), active: yesNo });

const COLUMNS: readonly Column<Coach>[] = [
  {
    header: tKey('staff:coaches.columns.name'),
    cell: (c) => <Link href={`/coaches/${c.id}`}>{coachName(c)}</Link>,
  },
  { header: tKey('staff:coaches.columns.email'), cell: (c) => c.email },
  { header: tKey('staff:coaches.columns.telephone'), cell: (c) => c.telephone ?? '–' },
  {
    header: tKey('staff:coaches.columns.initial'),
    cell: (c, t) => (c.takesInitialAppointments ? t('list.yes') : t('list.no')),
  },
  {
    header: tKey('staff:coaches.columns.status'),
    cell: (c, t) => (c.active ? t('coaches.active') : t('coaches.inactive')),
  },
];

/** `/coaches` (admins and onboarding managers): search, active filter, paging. */
export default function CoachesListPage() {
  const { t } = useTranslation('staff');
  const actorRef = useUrlList({
    path: '/coaches',
    filters: COACH_FILTERS,
    loadPage: loadCoachesPageActor,
  });
  const filters = useSelector(actorRef, (s) => s.context.query.filters);

  return (
    <StaffListPage
      title={t('coaches.title')}
      links={[{ href: '/coaches/new', label: t('coaches.new'), primary: true }]}
    >
      <DataTable
        actorRef={actorRef}
        columns={COLUMNS}
        label={t('coaches.results')}
        emptyText={t('coaches.empty')}
        filters={
          <>
            <FilterForm actorRef={actorRef}>
              <FilterInput
                name="search"
                type="search"
                label={t('coaches.filters.search')}
                value={filters.search}
                maxLength={100}
              />
              <FilterSelect
                name="active"
                label={t('coaches.filters.active')}
                value={filters.active}
                options={[
                  { value: 'true', label: t('coaches.active') },
                  { value: 'false', label: t('coaches.inactive') },
                ]}
              />
            </FilterForm>
            {filters.search ? <p className="field-hint">{t('coaches.searchHint')}</p> : null}
          </>
        }
      />
    </StaffListPage>
  );
}
