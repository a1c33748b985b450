import { useTranslation } from 'react-i18next';
import { useLocation, useSearch } from 'wouter';
import { AuthWidget } from './AuthWidget';

/** Only same-site paths: `returnTo` must not send the person to another site. */
export function safeReturnTo(search: string): string {
  const value = new URLSearchParams(search).get('returnTo');
  return value && value.startsWith('/') && !value.startsWith('//') ? value : '/';
}

/** `/login`: staff sign-in; afterwards to `returnTo` or the start page. */
export default function LoginPage() {
  const { t } = useTranslation('auth');
  const search = useSearch();
  const [, navigate] = useLocation();
  return (
    <article className="auth-page">
      <h1>{t('pages.staffLogin')}</h1>
      <AuthWidget flow="login" onSucceeded={() => navigate(safeReturnTo(search), { replace: true })} />
    </article>
  );
}
