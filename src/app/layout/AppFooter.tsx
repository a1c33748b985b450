import { useTranslation } from 'react-i18next';
import { legalLinks } from '../../lib/config';

/** Impressum and Datenschutz on every page (addresses from the build's configuration). */
export function AppFooter() {
  const { t } = useTranslation('common');
  const { imprint, privacy } = legalLinks();
  return (
    <footer className="app-footer">
      <nav aria-label={t('footer.label')}>
        <a href={imprint}>{t('footer.imprint')}</a>
        <a href={privacy}>{t('footer.privacy')}</a>
      </nav>
    </footer>
  );
}
