import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import type { MenuItem, MenuSection } from '../menu';
import { useAppServices } from '../services';
import type { Layout } from '../sidebar';
import { tKey } from '../../i18n/keys';

export interface NavigationProps {
  menu: Record<MenuSection, MenuItem[]>;
  open: boolean;
  layout: Layout;
}

const SECTIONS: readonly MenuSection[] = ['quick', 'main', 'bottom'];
const SECTION_LABELS: Record<MenuSection, string> = {
  quick: tKey('common:menu.sections.quick'),
  main: tKey('common:menu.sections.main'),
  bottom: tKey('common:menu.sections.bottom'),
};

/**
 * The sidebar (tablet and desktop) or drawer (below 768 px) with the quick actions, main and
 * bottom items of the specification's screens and routes.
 */
export function Navigation({ menu, open, layout }: NavigationProps) {
  const { t } = useTranslation('common');
  const { sidebar } = useAppServices();
  const [pathname] = useLocation();
  const drawer = layout === 'mobile';
  if (!open) return null;

  const nav = (
    <nav
      id="app-navigation"
      className={drawer ? 'app-drawer' : 'app-sidebar'}
      aria-label={t('menu.label')}
      onKeyDown={(e) => {
        if (drawer && e.key === 'Escape') sidebar.send({ type: 'closed' });
      }}
    >
      {/* The sidebar's column runs the page's full height; this part stays in view (app.css). */}
      <div className="menu-sections">
        {SECTIONS.filter((section) => menu[section].length > 0).map((section) => (
          <section
            key={section}
            className={`menu-section menu-${section}`}
            aria-labelledby={`menu-${section}`}
          >
            <h2 id={`menu-${section}`} className="menu-heading">
              {t(SECTION_LABELS[section])}
            </h2>
            <ul>
              {menu[section].map((item) => (
                <li key={item.id}>
                  {item.external ? (
                    <a href={item.href} target="_blank" rel="noopener noreferrer">
                      {t(item.labelKey)}
                    </a>
                  ) : (
                    <Link
                      href={item.href}
                      aria-current={pathname === item.href.split('?')[0] ? 'page' : undefined}
                      onClick={() => sidebar.send({ type: 'navigated' })}
                    >
                      {t(item.labelKey)}
                    </Link>
                  )}
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </nav>
  );

  if (!drawer) return nav;
  return (
    <div className="drawer-layer">
      <button
        type="button"
        className="drawer-backdrop"
        aria-label={t('header.closeMenu')}
        onClick={() => sidebar.send({ type: 'closed' })}
      />
      {nav}
    </div>
  );
}
