import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'wouter';
import type { components } from '../../../shared/contract/product';
import { recordOf } from '../../machines/record-detail.machine';
import { editUserSchema } from '../../forms/user-staff-form';
import { ActiveQuestion, ActiveToggleButton } from '../coaches/ConfirmActionPanel';
import { formatDateTime } from '../staff/format';
import { CancellableForm } from '../staff/StaffFormPage';
import { useFilterOptions } from '../staff/useUrlList';
import { RoleAndCoachFields } from './UserFields';
import { wireUserActive, wireUserDetail } from '../../machines/wiring/user-detail';
import { wireUserForm } from '../../machines/wiring/user-form';
import { useRouteActor } from '../route-actor';
import '../staff/staff.css';

type User = components['schemas']['User'];

/** `/users/{userId}/edit`: role and coach record (record form), and the account's active flag (asks first). */
export default function UserEditPage() {
  const { userId } = useParams<{ userId: string }>();
  return <UserEdit key={userId} id={userId} />;
}

function UserEdit({ id }: { id: string }) {
  const { t } = useTranslation('staff');
  const options = useFilterOptions(true);
  const formRef = useRouteActor(wireUserForm, { input: { id, schema: editUserSchema } });
  const detailRef = useRouteActor(wireUserDetail, { input: { id } });
  const activeRef = useRouteActor((effects) =>
    wireUserActive(effects, () => detailRef.send({ type: 'detail.reload' })),
  );
  const user = useSelector(detailRef, (s) => recordOf<User>(s.context));
  const title = t('user.editTitle');
  const email = user?.email ?? '';
  const activeWording = {
    deactivate: t('user.deactivate'),
    activate: t('user.activate'),
    deactivateQuestion: t('user.deactivateQuestion', { email }),
    activateQuestion: t('user.activateQuestion', { email }),
    deactivateConfirm: t('user.deactivateConfirm'),
    activateConfirm: t('user.activateConfirm'),
  };

  return (
    <article className="staff-page">
      <h1>{user ? `${title}: ${user.email}` : title}</h1>
      <CancellableForm
        actorRef={formRef}
        label={title}
        submitLabel={t('form.save')}
        cancelHref="/users"
      >
        <RoleAndCoachFields actorRef={formRef} coaches={options.coaches} />
      </CancellableForm>
      {user ? (
        <section className="detail-section" aria-labelledby="user-account">
          <h2 id="user-account">{t('user.accountTitle')}</h2>
          <p>
            {user.active ? t('user.statusActive') : t('user.statusInactive')}
            {user.activatedAt
              ? ` ${t('users.columns.activatedAt')}: ${formatDateTime(user.activatedAt)}`
              : ''}
          </p>
          <ActiveToggleButton actorRef={activeRef} record={user} wording={activeWording} />
          <ActiveQuestion actorRef={activeRef} wording={activeWording} />
        </section>
      ) : null}
    </article>
  );
}
