import { useTranslation } from 'react-i18next';
import { ActionLinks } from '../staff/ActionLinks';

/** `/`: what Sprechstunde is, and the ways in (specification section 2, breadcrumb 'home'). */
export function HomePage() {
  const { t } = useTranslation();
  return (
    <article className="home-page">
      <h1>{t('home.title')}</h1>
      <p className="lead">{t('home.intro')}</p>
      <p>{t('home.staff')}</p>
      <ActionLinks
        className="home-actions"
        label={t('home.actionsLabel')}
        links={[
          { href: '/login', label: t('home.login'), primary: true },
          { href: '/client-signup', label: t('home.clientSignup') },
        ]}
      />
    </article>
  );
}
