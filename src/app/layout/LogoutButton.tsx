import { useTranslation } from 'react-i18next';
import { useAppServices } from '../services';

/** Signs out (the session machine ends the session): in the header and on the partial-login page. */
export function LogoutButton() {
  const { t } = useTranslation('common');
  const { session } = useAppServices();
  return (
    <button
      type="button"
      className="button"
      onClick={() => session.send({ type: 'session.logout' })}
    >
      {t('header.logout')}
    </button>
  );
}
