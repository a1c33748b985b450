import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { legalLinks } from '../../lib/config';
import { useAppServices } from '../services';
import { useConsentOffered } from './ConsentBanner';

/**
 * Impressum and Datenschutz on every page: the app's own pages; where the tag manager runs,
 * the way back to the consent banner too.
 */
export function AppFooter() {
  const { t } = useTranslation('common');
  const { consent } = useAppServices();
  const consentOffered = useConsentOffered();
  const { imprint, privacy } = legalLinks();
  return (
    <footer className="app-footer">
      <nav aria-label={t('footer.label')}>
        <Link href={imprint}>{t('footer.imprint')}</Link>
        <Link href={privacy}>{t('footer.privacy')}</Link>
        {consentOffered ? (
          <button
            type="button"
            className="button-link"
            onClick={() => consent.send({ type: 'consent.open' })}
          >
            {t('footer.cookieSettings')}
          </button>
        ) : null}
      </nav>
    </footer>
  );
}
