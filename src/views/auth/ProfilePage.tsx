import { useTranslation } from 'react-i18next';
import { AuthWidget } from './AuthWidget';

/** `/profile`: the profile flow; without a valid session the error screen shows. */
export default function ProfilePage() {
  const { t } = useTranslation('auth');
  return (
    <article className="auth-page">
      <h1>{t('pages.profile')}</h1>
      <AuthWidget flow="profile" />
    </article>
  );
}
