import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';

/** `/`: what Sprechstunde is, and the ways in (specification section 2, breadcrumb 'home'). */
export function HomePage() {
  const { t } = useTranslation();
  return (
    <article className="home-page">
      <h1>{t('home.title')}</h1>
      <p className="lead">{t('home.intro')}</p>
      <p>{t('home.staff')}</p>
      <nav className="home-actions" aria-label={t('home.actionsLabel')}>
        <Link href="/login" className="button button-primary">
          {t('home.login')}
        </Link>
        <Link href="/client-signup" className="button">
          {t('home.clientSignup')}
        </Link>
      </nav>
    </article>
  );
}
