import { useTranslation } from 'react-i18next';
import { useLocation, useSearch } from 'wouter';
import { safeReturnTo } from '../../lib/return-to';
import { AuthWidget } from './AuthWidget';

/** Only same-site paths: `returnTo` must not send the person to another site. */
export const loginReturnTo = (search: string): string =>
  safeReturnTo(new URLSearchParams(search).get('returnTo')) ?? '/';

/** `/login`: staff sign-in; afterwards to `returnTo` or the start page. */
export default function LoginPage() {
  const { t } = useTranslation('auth');
  const search = useSearch();
  const [, navigate] = useLocation();
  return (
    <article className="auth-page">
      <h1>{t('pages.staffLogin')}</h1>
      <AuthWidget
        flow="login"
        onSucceeded={() => navigate(loginReturnTo(search), { replace: true })}
      />
    </article>
  );
}
