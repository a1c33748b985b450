import { useTranslation } from 'react-i18next';
import { Redirect, useSearch } from 'wouter';
import { CLIENT_HOME } from '../../lib/client-pages';
import { safeReturnTo } from '../../lib/return-to';
import { useSessionStatus } from '../session-status';
import { AuthWidget } from '../auth/AuthWidget';
import { ClientPage, LinkNotice } from './parts';

/**
 * `/client-signup/login`: the client sign-in (e-mails link here). A signed-in client goes on
 * to `returnTo` or to "Mein Termin" (`/mein-termin`, which used to live here); an account
 * without a client record is asked to sign up. One way to sign up: the widget's "Registrieren"
 * leads to the sign-up form, not to a bare account.
 */
export default function ClientLoginPage() {
  const { t } = useTranslation('client');
  const status = useSessionStatus();
  const returnTo = safeReturnTo(new URLSearchParams(useSearch()).get('returnTo'));
  if (status.kind === 'signedIn' && status.session.active) {
    return <Redirect to={returnTo ?? CLIENT_HOME} replace />;
  }
  return (
    <ClientPage title={t('login.title')}>
      {status.kind === 'signedIn' ? (
        <LinkNotice text={t('gate.noClient')} href="/client-signup" label={t('gate.toSignup')} />
      ) : (
        <>
          <p>{t('login.intro')}</p>
          <AuthWidget flow="login" registrationHref="/client-signup" />
        </>
      )}
    </ClientPage>
  );
}
