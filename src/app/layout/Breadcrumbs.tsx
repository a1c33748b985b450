import { useTranslation } from 'react-i18next';
import { Link, useLocation, useRouter } from 'wouter';
import { breadcrumbTrail, showBreadcrumbs } from '../breadcrumbs';
import { routes } from '../routes';

/** Shown only when the route depth is greater than 3 (specification section 2). */
export function Breadcrumbs() {
  const { t } = useTranslation();
  const [pathname] = useLocation();
  const { parser } = useRouter();
  const trail = breadcrumbTrail(pathname, routes, parser);
  if (!showBreadcrumbs(trail)) return null;
  return (
    <nav className="breadcrumbs" aria-label={t('breadcrumbs.label')}>
      <ol>
        {trail.map((crumb, index) => (
          <li key={crumb.href}>
            {index === trail.length - 1 ? (
              <span aria-current="page">{t(crumb.labelKey)}</span>
            ) : (
              <Link href={crumb.href}>{t(crumb.labelKey)}</Link>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
