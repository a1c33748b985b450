import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { z } from 'zod';
import type { components } from '../../../shared/contract/product';
import { tKey } from '../../i18n/keys';
import { loadUsersPageActor } from '../../machines/actors/staff/users';
import { StaffListPage } from '../staff/ActionLinks';
import { type Column, DataTable } from '../staff/DataTable';
import { formatDate } from '../staff/format';
import { useUrlList } from '../staff/useUrlList';

type User = components['schemas']['User'];

/** `GET /user` has no filters: only the page is in the URL. */
const USER_FILTERS = z.object({});

const COLUMNS: readonly Column<User>[] = [
  { header: tKey('staff:users.columns.email'), cell: (u) => u.email },
  { header: tKey('staff:users.columns.role'), cell: (u, t) => t(`roles.${u.role}`) },
  {
    header: tKey('staff:users.columns.coach'),
    cell: (u) =>
      u.coach ? (
        <Link href={`/coaches/${u.coach.id}`}>{`${u.coach.firstName} ${u.coach.lastName}`}</Link>
      ) : (
        '–'
      ),
  },
  {
    header: tKey('staff:users.columns.status'),
    cell: (u, t) => (u.active ? t('users.active') : t('users.inactive')),
  },
  {
    header: tKey('staff:users.columns.activatedAt'),
    cell: (u) => formatDate(u.activatedAt) || '–',
  },
  { header: tKey('staff:users.columns.createdAt'), cell: (u) => formatDate(u.createdAt) },
  {
    header: tKey('staff:users.columns.action'),
    width: 'narrow',
    cell: (u, t) => (
      <Link href={`/users/${u.id}/edit`} aria-label={`${t('users.edit')}: ${u.email}`}>
        {t('users.edit')}
      </Link>
    ),
  },
];

/** `/users` (admins and onboarding managers): every account, newest first, with role and status. */
export default function UsersListPage() {
  const { t } = useTranslation('staff');
  const actorRef = useUrlList({
    path: '/users',
    filters: USER_FILTERS,
    loadPage: loadUsersPageActor,
  });

  return (
    <StaffListPage
      title={t('users.title')}
      links={[{ href: '/users/new', label: t('users.new'), primary: true }]}
    >
      <DataTable
        actorRef={actorRef}
        columns={COLUMNS}
        label={t('users.results')}
        emptyText={t('users.empty')}
      />
    </StaffListPage>
  );
}
