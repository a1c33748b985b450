import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { z } from 'zod';
import type { components } from '../../../shared/contract/product';
import { loadUsersPageActor } from '../../machines/actors/staff/users';
import { rowsOf } from '../../machines/list.machine';
import { formatDate } from '../staff/format';
import { ListFrame } from '../staff/ListParts';
import { useUrlList } from '../staff/useUrlList';

type User = components['schemas']['User'];

/** `GET /user` has no filters: only the page is in the URL. */
const USER_FILTERS = z.object({});

/** `/users` (admins and onboarding managers): every account, newest first, with role and status. */
export default function UsersListPage() {
  const { t } = useTranslation('staff');
  const actorRef = useUrlList({ path: '/users', filters: USER_FILTERS, loadPage: loadUsersPageActor });
  const rows = useSelector(actorRef, (s) => rowsOf<User>(s.context));

  return (
    <article className="staff-page">
      <h1>{t('users.title')}</h1>
      <div className="page-actions">
        <Link href="/users/new" className="button button-primary">
          {t('users.new')}
        </Link>
      </div>
      <ListFrame actorRef={actorRef} label={t('users.results')} emptyText={t('users.empty')}>
        <div className="table-scroll">
          <table className="staff-table">
            <caption className="visually-hidden">{t('users.results')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('users.columns.email')}</th>
                <th scope="col">{t('users.columns.role')}</th>
                <th scope="col">{t('users.columns.coach')}</th>
                <th scope="col">{t('users.columns.status')}</th>
                <th scope="col">{t('users.columns.activatedAt')}</th>
                <th scope="col">{t('users.columns.createdAt')}</th>
                <th scope="col">{t('users.columns.action')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((u) => (
                <tr key={u.id}>
                  <td>{u.email}</td>
                  <td>{t(`roles.${u.role}`)}</td>
                  <td>{u.coach ? <Link href={`/coaches/${u.coach.id}`}>{`${u.coach.firstName} ${u.coach.lastName}`}</Link> : '–'}</td>
                  <td>{u.active ? t('users.active') : t('users.inactive')}</td>
                  <td>{formatDate(u.activatedAt) || '–'}</td>
                  <td>{formatDate(u.createdAt)}</td>
                  <td>
                    <Link href={`/users/${u.id}/edit`} aria-label={`${t('users.edit')}: ${u.email}`}>
                      {t('users.edit')}
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </ListFrame>
    </article>
  );
}
