import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { legalLinks } from '../../lib/config';

/** Impressum and Datenschutz on every page: the app's own pages. */
export function AppFooter() {
  const { t } = useTranslation('common');
  const { imprint, privacy } = legalLinks();
  return (
    <footer className="app-footer">
      <nav aria-label={t('footer.label')}>
        <Link href={imprint}>{t('footer.imprint')}</Link>
        <Link href={privacy}>{t('footer.privacy')}</Link>
      </nav>
    </footer>
  );
}
