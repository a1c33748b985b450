import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { useStaffSession } from '../staff/useUrlList';
import { availableAdminLinks } from './admin-links';
import './admin.css';

/**
 * `/admin` (ADMIN, SUPERADMIN), "Verwaltung": the administration pages the app has and the
 * person may open (webhooks and the e-mail sync are the superadmin's, marked so for them); the
 * introduction says what applies to the role.
 * `routes` are the app's route patterns (the route table passes them; views do not import it).
 */
export default function AdminHubPage({ routes }: { routes: readonly string[] }) {
  const { t } = useTranslation('admin');
  const { role } = useStaffSession();
  const links = availableAdminLinks(routes, role);
  return (
    <article className="staff-page admin-page">
      <h1>{t('hub.title')}</h1>
      <p>{role === 'SUPERADMIN' ? t('hub.intro.SUPERADMIN') : t('hub.intro.ADMIN')}</p>
      <ul className="admin-links" aria-label={t('hub.linksLabel')}>
        {links.map((link) => (
          <li key={link.href}>
            <Link href={link.href}>{t(link.labelKey)}</Link>
            {/* The superadmin sees which tasks are theirs alone. */}
            {role === 'SUPERADMIN' && link.roles.every((r) => r === 'SUPERADMIN') ? (
              <span className="admin-link-badge"> ({t('hub.superadminOnly')})</span>
            ) : null}
            <p className="admin-link-hint">{t(link.hintKey)}</p>
          </li>
        ))}
      </ul>
    </article>
  );
}
