import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Redirect } from 'wouter';
import type { components } from '../../../shared/contract/product';
import { CLIENT_HOME, CLIENT_SIGN_IN } from '../../lib/client-pages';
import { recordOf } from '../../machines/record-detail.machine';
import { wireClientDocuments } from '../../machines/wiring/client-documents';
import { useRouteActor } from '../route-actor';
import { useSessionStatus } from '../session-status';
import { formatDate, formatDateTime } from '../staff/format';
import { ClientGate, ClientPage, ErrorNotice, LinkNotice } from './parts';
import '../clinical/clinical.css';
import './documents.css';

type PatientCard = components['schemas']['PatientCard'];
type CardContent = components['schemas']['PatientCardContent'];

const LIFESTYLE = ['sleep', 'activity', 'nutrition', 'substances'] as const;

/** The card's filled-in fields as a read-only list (empty ones are left out). */
function CardFacts({ card }: { card: CardContent }) {
  const { t } = useTranslation('clinical');
  const text = (value: string | undefined) => (value && value.trim() ? value : null);
  const rows: Array<[string, ReactNode]> = [];
  const add = (label: string, value: ReactNode | null) => {
    if (value !== null && value !== undefined) rows.push([label, value]);
  };
  add(t('card.reason'), text(card.reason));
  if (card.goals?.length) {
    add(
      t('card.goals'),
      <ul>
        {card.goals.map((g, i) => (
          <li key={i}>
            {g.text} ({t(`card.horizons.${g.horizon}`)})
          </li>
        ))}
      </ul>,
    );
  }
  add(t('card.history'), text(card.history));
  add(t('card.currentComplaints'), text(card.currentComplaints));
  if (card.diagnoses?.length) {
    add(
      t('card.diagnoses'),
      <ul>
        {card.diagnoses.map((d, i) => (
          <li key={i}>
            {[d.code, d.text].filter(Boolean).join(' – ')}
            {d.since ? ` (${t('card.since')} ${formatDate(d.since)})` : ''}
          </li>
        ))}
      </ul>,
    );
  }
  add(t('card.medications'), text(card.medications));
  add(t('card.mentalStressIndicator'), card.mentalStressIndicator ?? null);
  for (const key of LIFESTYLE) add(t(`card.lifestyleFields.${key}`), text(card.lifestyle?.[key]));
  const consents = card.consents;
  if (consents) {
    add(
      t('card.consents'),
      <ul>
        <li>
          {t('card.consentProcessing')}
          {consents.processing ? ` (${formatDate(consents.processing)})` : ''}:{' '}
          {consents.processing ? t('card.yes') : t('card.no')}
        </li>
        <li>
          {t('card.consentResearch')}: {consents.research ? t('card.yes') : t('card.no')}
        </li>
        <li>
          {t('card.consentRecordings')}: {consents.recordings ? t('card.yes') : t('card.no')}
        </li>
      </ul>,
    );
  }
  return (
    <dl className="client-document-facts">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd className="pre-wrap">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * `/mein-termin/dokumente` ("Meine Dokumente"): the signed-in client reads their own signed
 * patient card, read-only, with who signed it and when, and the amendments; never the
 * reviewers' comments (the server leaves them out for a client).
 */
export default function ClientDocumentsPage() {
  const { t } = useTranslation('client');
  const status = useSessionStatus();
  if (status.kind === 'signedOut') return <Redirect to={CLIENT_SIGN_IN} replace />;
  const clientId = status.kind === 'signedIn' ? status.session.clientId : undefined;
  return (
    <ClientPage title={t('documents.title')}>
      <ClientGate>
        {clientId ? (
          <OwnCard clientId={clientId} />
        ) : (
          <LinkNotice text={t('gate.noClient')} href="/client-signup" label={t('gate.toSignup')} />
        )}
      </ClientGate>
      <p>
        <Link href={CLIENT_HOME}>{t('documents.back')}</Link>
      </p>
    </ClientPage>
  );
}

function OwnCard({ clientId }: { clientId: string }) {
  const { t } = useTranslation(['client', 'clinical']);
  const actorRef = useRouteActor(wireClientDocuments, { input: { id: clientId } });
  const card = useSelector(actorRef, (s) => recordOf<PatientCard>(s.context));
  const loading = useSelector(actorRef, (s) => s.hasTag('loading'));
  const error = useSelector(actorRef, (s) => (s.hasTag('error') ? s.context.error : null));
  if (error?.code === 'not_found') return <p className="notice">{t('documents.none')}</p>;
  if (error)
    return (
      <ErrorNotice code={error.code} onRetry={() => actorRef.send({ type: 'detail.retry' })} />
    );
  if (loading || !card) return <p role="status">{t('documents.loading')}</p>;
  const signature = card.signature;
  return (
    <section className="client-document" aria-labelledby="client-card-title">
      <h2 id="client-card-title">{t('clinical:card.title')}</h2>
      {signature ? (
        <p className="notice">
          {t('clinical:signature.signedBy', {
            who: signature.signedByName ?? t('clinical:signature.unknown'),
            when: formatDateTime(signature.signedAt),
          })}
        </p>
      ) : null}
      <p className="field-hint">{t('documents.readOnly')}</p>
      <CardFacts card={card.content as CardContent} />
      {card.amendments.length > 0 ? (
        <section aria-labelledby="client-card-amendments">
          <h3 id="client-card-amendments">{t('clinical:amendments.title')}</h3>
          <ol className="amendments">
            {card.amendments.map((a) => (
              <li key={a.id}>
                <strong>
                  {t('clinical:amendments.byline', {
                    who: a.authorName ?? t('clinical:signature.unknown'),
                    when: formatDateTime(a.createdAt),
                  })}
                </strong>
                <p>{a.reason}</p>
                <p className="pre-wrap">{a.text}</p>
              </li>
            ))}
          </ol>
        </section>
      ) : null}
    </section>
  );
}
