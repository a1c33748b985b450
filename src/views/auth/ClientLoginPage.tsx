import { useTranslation } from 'react-i18next';
import { AuthWidget } from './AuthWidget';

/** `/client-signup/login`: client sign-in; stays on the page, which says "Angemeldet". */
export default function ClientLoginPage() {
  const { t } = useTranslation('auth');
  return (
    <article className="auth-page">
      <h1>{t('pages.clientLogin')}</h1>
      <AuthWidget flow="login" />
    </article>
  );
}
