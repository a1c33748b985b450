import { useSelector } from '@xstate/react';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useRouter } from 'wouter';
import { routePatterns } from '../routes';
import { useAppServices } from '../services';
import { useSessionStatus } from '../../views/session-status';
import { Breadcrumbs } from './Breadcrumbs';
import { AppFooter } from './AppFooter';
import { ConsentBanner } from './ConsentBanner';
import { HeaderActions } from './HeaderActions';
import { NetworkBanner } from './NetworkBanner';
import type * as StaffMenuModule from './staff-menu';
import { Toaster } from './Toaster';

type StaffMenu = typeof StaffMenuModule;
let staffMenu: StaffMenu | undefined;
const loadStaffMenu = () => import('./staff-menu').then((m) => (staffMenu = m));

/**
 * The staff menu's code, once someone active is signed in; loaded on demand, so pages for
 * signed-out visitors and clients do without it. Until it has arrived there is no menu.
 */
function useStaffMenu(needed: boolean): StaffMenu | undefined {
  const [loaded, setLoaded] = useState(staffMenu);
  useEffect(() => {
    if (!needed || loaded) return;
    let live = true;
    loadStaffMenu().then(
      (m) => live && setLoaded(m),
      // A failed load (network) leaves the page without a menu; the next sign-in tries again.
      () => {},
    );
    return () => {
      live = false;
    };
  }, [needed, loaded]);
  return needed ? loaded : undefined;
}

/** Header, sidebar or drawer, breadcrumbs, banner and toasts around every page. */
export function AppShell({ children }: { children: ReactNode }) {
  const { t } = useTranslation('common');
  const { sidebar } = useAppServices();
  const status = useSessionStatus();
  const { parser } = useRouter();
  const { open, layout } = useSelector(sidebar, (s) => s.context);

  const active = status.kind === 'signedIn' && status.session.active ? status.session : null;
  const staff = useStaffMenu(active !== null);
  const menu = active && staff ? staff.menuFor(active.role, routePatterns(), parser) : null;
  const hasMenu = !!menu && menu.quick.length + menu.main.length + menu.bottom.length > 0;

  return (
    <div
      className="app-shell"
      data-layout={layout}
      data-sidebar={hasMenu ? (open ? 'open' : 'closed') : 'none'}
    >
      <a className="skip-link" href="#content">
        {t('skipToContent')}
      </a>
      <NetworkBanner />
      <ConsentBanner />
      <header className="app-header">
        {hasMenu && (
          <button
            type="button"
            className="menu-toggle"
            aria-expanded={open}
            aria-controls="app-navigation"
            onClick={() => sidebar.send({ type: 'toggled' })}
          >
            {open ? t('header.closeMenu') : t('header.openMenu')}
          </button>
        )}
        <Link href="/" className="app-name">
          {t('appName')}
        </Link>
        <HeaderActions />
      </header>
      <div className="app-body">
        {hasMenu && menu && staff && <staff.Navigation menu={menu} open={open} layout={layout} />}
        <div className="app-content">
          <Breadcrumbs />
          <main id="content" className="app-main" tabIndex={-1}>
            {children}
          </main>
          <AppFooter />
        </div>
      </div>
      <Toaster />
    </div>
  );
}
