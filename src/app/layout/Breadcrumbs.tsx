import { useTranslation } from 'react-i18next';
import { Link, useLocation, useRouter } from 'wouter';
import { breadcrumbTrail, showBreadcrumbs } from '../breadcrumbs';
import { routes } from '../routes';
import { useCrumbNames } from '../../views/parts/crumb-names';

/** Shown only when the route depth is greater than 3 (the specification's screens and routes). */
export function Breadcrumbs() {
  const { t } = useTranslation();
  const [pathname] = useLocation();
  const { parser } = useRouter();
  const trail = breadcrumbTrail(pathname, routes, parser);
  // A page showing a record may name its crumb (the client's name instead of "Klient:in").
  const names = useCrumbNames();
  if (!showBreadcrumbs(trail)) return null;
  const label = (crumb: (typeof trail)[number]) => names.get(crumb.href) ?? t(crumb.labelKey);
  return (
    <nav className="breadcrumbs" aria-label={t('breadcrumbs.label')}>
      <ol>
        {trail.map((crumb, index) => (
          <li key={crumb.href}>
            {index === trail.length - 1 ? (
              <span aria-current="page">{label(crumb)}</span>
            ) : (
              <Link href={crumb.href}>{label(crumb)}</Link>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
