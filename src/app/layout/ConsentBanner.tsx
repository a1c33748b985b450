import { useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { legalLinks } from '../../lib/config';
import { TAG_MANAGER_PAGES } from '../../lib/tag-manager';
import { useAppServices } from '../services';

/** Whether the consent can be given or changed here: a page the tag manager runs on. */
export function useConsentOffered(): boolean {
  const { consent } = useAppServices();
  const [pathname] = useLocation();
  const available = useSelector(consent, (s) => s.context.available);
  return available && TAG_MANAGER_PAGES.test(pathname);
}

/**
 * The consent banner of the sign-up pages: not modal (the page stays usable), both answers
 * equally plain buttons. Reopened from the footer it takes the focus, says the current
 * choice, and Escape closes it unchanged.
 */
export function ConsentBanner() {
  const { t } = useTranslation('common');
  const { consent } = useAppServices();
  const offered = useConsentOffered();
  const open = useSelector(consent, (s) => s.hasTag('banner'));
  const choice = useSelector(consent, (s) => s.context.choice);
  const heading = useRef<HTMLHeadingElement>(null);
  const reviewing = open && choice !== null;

  useEffect(() => {
    if (reviewing) heading.current?.focus();
  }, [reviewing]);

  if (!offered || !open) return null;
  return (
    <section
      className="consent-banner"
      aria-labelledby="consent-title"
      aria-describedby="consent-text"
      onKeyDown={(event) => {
        if (event.key === 'Escape' && reviewing) consent.send({ type: 'consent.close' });
      }}
    >
      <h2 id="consent-title" ref={heading} tabIndex={-1}>
        {t('consent.title')}
      </h2>
      <p id="consent-text">
        {t('consent.text')} {choice ? t(`consent.current.${choice}`) : null}{' '}
        <Link href={legalLinks().privacy}>{t('consent.privacy')}</Link>
      </p>
      <div className="consent-actions">
        <button
          type="button"
          className="button"
          onClick={() => consent.send({ type: 'consent.decline' })}
        >
          {t('consent.decline')}
        </button>
        <button
          type="button"
          className="button"
          onClick={() => consent.send({ type: 'consent.accept' })}
        >
          {t('consent.accept')}
        </button>
      </div>
    </section>
  );
}
