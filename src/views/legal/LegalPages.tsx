import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { LegalInfo } from '../../machines/actors/practice';
import { recordOf } from '../../machines/record-detail.machine';
import { wireLegalPage } from '../../machines/wiring/practice';
import { useRouteActor } from '../route-actor';
import { formatDate } from '../staff/format';
import './legal.css';

/**
 * The imprint (§ 5 DDG) and the privacy notice (Art. 13 DSGVO) as pages of the app (issue
 * #31), filled from the practice settings (`GET /legal`). The texts are in the `legal`
 * namespace; docs/legal-pages.md says that a practice has them reviewed before going live.
 */

/** The privacy notice's sections in order, each with its paragraphs (`p1` …). */
const PRIVACY_SECTIONS: readonly { id: string; paragraphs: number }[] = [
  { id: 'controller', paragraphs: 2 },
  { id: 'account', paragraphs: 2 },
  { id: 'health', paragraphs: 3 },
  { id: 'appointments', paragraphs: 2 },
  { id: 'video', paragraphs: 2 },
  { id: 'messages', paragraphs: 2 },
  { id: 'billing', paragraphs: 1 },
  { id: 'hosting', paragraphs: 2 },
  { id: 'consent', paragraphs: 2 },
  { id: 'research', paragraphs: 2 },
  { id: 'recipients', paragraphs: 2 },
  { id: 'retention', paragraphs: 2 },
  { id: 'rights', paragraphs: 3 },
  { id: 'complaint', paragraphs: 1 },
  { id: 'duty', paragraphs: 2 },
];

/** Loads the practice's details; while loading or after a failure says so (with retry). */
function LegalFrame({
  title,
  children,
}: {
  title: string;
  children: (info: LegalInfo) => ReactNode;
}) {
  const { t } = useTranslation('legal');
  const actorRef = useRouteActor(wireLegalPage, { input: { id: 'legal' } });
  const state = useSelector(actorRef, (s) => s);
  const info = recordOf<LegalInfo>(state.context);
  return (
    <article className="legal-page" aria-busy={state.hasTag('loading')}>
      <h1>{title}</h1>
      {info ? (
        <>
          {children(info)}
          {info.updatedAt ? (
            <p className="legal-updated">{t('updated', { date: formatDate(info.updatedAt) })}</p>
          ) : null}
        </>
      ) : state.hasTag('error') ? (
        <div className="notice notice-error" role="alert">
          <p>{t('failed')}</p>
          <button
            type="button"
            className="button"
            onClick={() => actorRef.send({ type: 'detail.retry' })}
          >
            {t('retry')}
          </button>
        </div>
      ) : (
        <p className="list-progress" role="status">
          <span className="spinner" aria-hidden="true" />
          {t('loading')}
        </p>
      )}
    </article>
  );
}

const addressOf = (info: LegalInfo) => `${info.street}, ${info.postalCode} ${info.city}`;

/** `/impressum`: the provider's details (§ 5 DDG). */
export function ImprintPage() {
  const { t } = useTranslation('legal');
  return (
    <LegalFrame title={t('imprint.title')}>
      {(info) => (
        <>
          <section aria-labelledby="imprint-provider">
            <h2 id="imprint-provider">{t('imprint.provider')}</h2>
            <address>
              {info.name}
              <br />
              {info.street}
              <br />
              {info.postalCode} {info.city}
            </address>
            {info.managingPerson ? (
              <p>
                {t('imprint.managing')}: {info.managingPerson}
              </p>
            ) : null}
          </section>
          <section aria-labelledby="imprint-contact">
            <h2 id="imprint-contact">{t('imprint.contact')}</h2>
            <dl className="legal-facts">
              <dt>{t('imprint.phone')}</dt>
              <dd>
                <a href={`tel:${info.phone.replace(/[^+0-9]/g, '')}`}>{info.phone}</a>
              </dd>
              <dt>{t('imprint.email')}</dt>
              <dd>
                <a href={`mailto:${info.email}`}>{info.email}</a>
              </dd>
            </dl>
          </section>
          {info.registerNumber ? (
            <section aria-labelledby="imprint-register">
              <h2 id="imprint-register">{t('imprint.register')}</h2>
              <dl className="legal-facts">
                <dt>{t('imprint.registerCourt')}</dt>
                <dd>{info.registerCourt}</dd>
                <dt>{t('imprint.registerNumber')}</dt>
                <dd>{info.registerNumber}</dd>
              </dl>
            </section>
          ) : null}
          {info.vatId ? (
            <section aria-labelledby="imprint-vat">
              <h2 id="imprint-vat">{t('imprint.vat')}</h2>
              <p>
                {t('imprint.vatId')}: {info.vatId}
              </p>
            </section>
          ) : null}
          <section aria-labelledby="imprint-privacy">
            <h2 id="imprint-privacy">{t('imprint.dpo')}</h2>
            {info.dpoName || info.dpoEmail ? (
              <p>
                {t('imprint.dpoText', {
                  dpo: [info.dpoName, info.dpoEmail].filter(Boolean).join(', '),
                })}
              </p>
            ) : null}
            <p>
              <Link href="/datenschutz">{t('imprint.privacyLink')}</Link>
            </p>
          </section>
          <section aria-labelledby="imprint-dispute">
            <h2 id="imprint-dispute">{t('imprint.dispute')}</h2>
            <p>{t('imprint.disputeText')}</p>
          </section>
        </>
      )}
    </LegalFrame>
  );
}

/** `/datenschutz`: what this product processes, with the practice's details filled in. */
export function PrivacyPage() {
  const { t } = useTranslation('legal');
  return (
    <LegalFrame title={t('privacy.title')}>
      {(info) => {
        const values = {
          name: info.name,
          address: addressOf(info),
          email: info.email,
          phone: info.phone,
          dpo:
            info.dpoName || info.dpoEmail
              ? [info.dpoName, info.dpoEmail].filter(Boolean).join(', ')
              : t('privacy.dpoNone'),
          authority: info.supervisoryAuthority ?? t('privacy.authorityNone'),
          interpolation: { escapeValue: false },
        };
        return (
          <>
            <p className="legal-intro">{t('privacy.intro', values)}</p>
            <nav aria-label={t('privacy.title')} className="legal-toc">
              <ol>
                {PRIVACY_SECTIONS.map(({ id }) => (
                  <li key={id}>
                    <a href={`#privacy-${id}`}>{t(`privacy.sections.${id}.title`)}</a>
                  </li>
                ))}
              </ol>
            </nav>
            {PRIVACY_SECTIONS.map(({ id, paragraphs }) => (
              <section key={id} aria-labelledby={`privacy-${id}`}>
                <h2 id={`privacy-${id}`}>{t(`privacy.sections.${id}.title`)}</h2>
                {Array.from({ length: paragraphs }, (_, i) => (
                  <p key={i}>{t(`privacy.sections.${id}.p${i + 1}`, values)}</p>
                ))}
              </section>
            ))}
          </>
        );
      }}
    </LegalFrame>
  );
}

export default PrivacyPage;
