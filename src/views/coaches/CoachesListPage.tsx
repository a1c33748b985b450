import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { z } from 'zod';
import type { components } from '../../../shared/contract/product';
import { loadCoachesPageActor } from '../../machines/actors/staff/coaches';
import { coachName } from '../../forms/coach-staff-form';
import { rowsOf, text, yesNo } from '../../machines/list.machine';
import { FilterForm, FilterInput, FilterSelect } from '../staff/FilterParts';
import { ListFrame } from '../staff/ListParts';
import { useUrlList } from '../staff/useUrlList';

type Coach = components['schemas']['Coach'];

/** The filters of `/coaches` as URL keys. */
export const COACH_FILTERS = z.object({ search: text(100), active: yesNo });

/** `/coaches` (admins and onboarding managers): search, active filter, paging. */
export default function CoachesListPage() {
  const { t } = useTranslation('staff');
  const actorRef = useUrlList({ path: '/coaches', filters: COACH_FILTERS, loadPage: loadCoachesPageActor });
  const filters = useSelector(actorRef, (s) => s.context.query.filters);
  const rows = useSelector(actorRef, (s) => rowsOf<Coach>(s.context));

  return (
    <article className="staff-page">
      <h1>{t('coaches.title')}</h1>
      <div className="page-actions">
        <Link href="/coaches/new" className="button button-primary">
          {t('coaches.new')}
        </Link>
      </div>
      <FilterForm actorRef={actorRef} filtersKey={JSON.stringify(filters)} label={t('list.filters')}>
        <FilterInput name="search" type="search" label={t('coaches.filters.search')} value={filters.search} maxLength={100} />
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
      <ListFrame actorRef={actorRef} label={t('coaches.results')} emptyText={t('coaches.empty')}>
        <div className="table-scroll">
          <table className="staff-table">
            <caption className="visually-hidden">{t('coaches.results')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('coaches.columns.name')}</th>
                <th scope="col">{t('coaches.columns.email')}</th>
                <th scope="col">{t('coaches.columns.telephone')}</th>
                <th scope="col">{t('coaches.columns.initial')}</th>
                <th scope="col">{t('coaches.columns.status')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((c) => (
                <tr key={c.id}>
                  <td>
                    <Link href={`/coaches/${c.id}`}>{coachName(c)}</Link>
                  </td>
                  <td>{c.email}</td>
                  <td>{c.telephone ?? '–'}</td>
                  <td>{c.takesInitialAppointments ? t('list.yes') : t('list.no')}</td>
                  <td>{c.active ? t('coaches.active') : t('coaches.inactive')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </ListFrame>
    </article>
  );
}
