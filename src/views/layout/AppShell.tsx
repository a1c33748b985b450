import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { Breadcrumbs } from './Breadcrumbs';
import { NetworkBanner } from './NetworkBanner';

export function AppShell({ children }: { children: ReactNode }) {
  const { t } = useTranslation('common');
  return (
    <div className="app-shell">
      <a className="skip-link" href="#content">
        {t('skipToContent')}
      </a>
      <NetworkBanner />
      <header className="app-header">
        <Link href="/" className="app-name">
          {t('appName')}
        </Link>
      </header>
      <Breadcrumbs />
      <main id="content" className="app-main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
