import { useTranslation } from 'react-i18next';
import { Redirect } from 'wouter';
import { CLIENT_HOME } from '../../lib/client-pages';
import { ActionLinks } from '../staff/ActionLinks';
import { statusMay, useSessionStatus } from '../session-status';

/**
 * `/`: what Sprechstunde is, and the ways in (the specification's screens and routes, breadcrumb
 * 'home'). Only signed-out visitors are offered sign-in and sign-up; a client is offered their
 * appointment, and someone signed in whose account is not active yet goes to `/notactive`.
 */
export function HomePage() {
  const { t } = useTranslation();
  const status = useSessionStatus();
  if (status.kind === 'signedIn' && !status.session.active)
    return <Redirect to="/notactive" replace />;
  const client = statusMay(status, 'openClientPages');
  return (
    <article className="home-page">
      <h1>{t('home.title')}</h1>
      <p className="lead">{t('home.intro')}</p>
      <p>{t('home.staff')}</p>
      {status.kind === 'signedOut' ? (
        <ActionLinks
          className="home-actions"
          label={t('home.actionsLabel')}
          links={[
            { href: '/login', label: t('home.login'), primary: true },
            { href: '/client-signup', label: t('home.clientSignup') },
          ]}
        />
      ) : null}
      {client ? (
        <ActionLinks
          className="home-actions"
          label={t('home.actionsLabel')}
          links={[{ href: CLIENT_HOME, label: t('home.myAppointment'), primary: true }]}
        />
      ) : null}
    </article>
  );
}
