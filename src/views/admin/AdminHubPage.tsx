import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { availableAdminLinks } from './admin-links';
import './admin.css';

/**
 * `/admin` (SUPERADMIN), "Verwaltung": the pages of the superadmin area that the app has.
 * `routes` are the app's route patterns (the route table passes them; views do not import it).
 */
export default function AdminHubPage({ routes }: { routes: readonly string[] }) {
  const { t } = useTranslation('admin');
  const links = availableAdminLinks(routes);
  return (
    <article className="staff-page admin-page">
      <h1>{t('hub.title')}</h1>
      <p>{t('hub.intro')}</p>
      <ul className="admin-links" aria-label={t('hub.linksLabel')}>
        {links.map((link) => (
          <li key={link.href}>
            <Link href={link.href}>{t(link.labelKey)}</Link>
            <p className="admin-link-hint">{t(link.hintKey)}</p>
          </li>
        ))}
      </ul>
    </article>
  );
}
