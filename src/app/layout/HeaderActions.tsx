import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { CLIENT_HOME, CLIENT_PAGE, CLIENT_SIGN_IN } from '../../lib/client-pages';
import { statusMay, useSessionStatus } from '../../views/session-status';
import { LogoutButton } from './LogoutButton';
import { SignedInAs } from './SignedInAs';

const SIGN_IN_PAGES = new Set(['/login', CLIENT_SIGN_IN, '/activate']);

/**
 * The header's right side: signed out, "Anmelden" to the sign-in that fits the page; signed
 * in, staff see who they are and in which role, then "Abmelden", and for a client "Mein Termin" on every page, so they always find the way back.
 */
export function HeaderActions() {
  const { t } = useTranslation('common');
  const status = useSessionStatus();
  const [pathname] = useLocation();
  if (status.kind === 'pending') return null;
  if (status.kind === 'signedOut') {
    if (SIGN_IN_PAGES.has(pathname)) return null;
    return (
      <div className="header-actions">
        <Link href={CLIENT_PAGE.test(pathname) ? CLIENT_SIGN_IN : '/login'} className="button">
          {t('header.login')}
        </Link>
      </div>
    );
  }
  const client =
    status.kind === 'signedIn' && status.session.active && statusMay(status, 'openClientPages');
  const staff = status.kind === 'signedIn' && status.session.active && !client;
  return (
    <div className="header-actions">
      {staff && status.kind === 'signedIn' ? <SignedInAs session={status.session} /> : null}
      {client && pathname !== CLIENT_HOME ? (
        <Link href={CLIENT_HOME} className="button">
          {t('header.myAppointment')}
        </Link>
      ) : null}
      <LogoutButton />
    </div>
  );
}
