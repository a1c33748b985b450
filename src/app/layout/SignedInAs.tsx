import { useTranslation } from 'react-i18next';
import type { SessionInfo } from '../../machines/session.machine';
import { tKey } from '../../i18n/keys';

const ROLE_LABELS: Record<SessionInfo['role'], string> = {
  NONE: tKey('common:header.roles.NONE'),
  COACH: tKey('common:header.roles.COACH'),
  ADMIN: tKey('common:header.roles.ADMIN'),
  ONBOARDING_MANAGER: tKey('common:header.roles.ONBOARDING_MANAGER'),
  SUPERADMIN: tKey('common:header.roles.SUPERADMIN'),
};

/** Who is signed in and in which role: the coach's name, else the address. */
export function SignedInAs({ session }: { session: SessionInfo }) {
  const { t } = useTranslation('common');
  const name = session.coach?.name ?? session.email;
  const role = t(ROLE_LABELS[session.role]);
  return (
    <span
      className="header-user"
      data-testid="signed-in-as"
      title={name ? t('header.signedInAs', { name, role }) : role}
    >
      {name ? (
        <>
          <span className="header-user-name">{name}</span>{' '}
          <span className="header-user-role">({role})</span>
        </>
      ) : (
        <span className="header-user-role">{role}</span>
      )}
    </span>
  );
}
