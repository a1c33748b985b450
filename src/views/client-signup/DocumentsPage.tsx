import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link, Redirect } from 'wouter';
import type { components } from '../../../shared/contract/product';
import { CLIENT_HOME, CLIENT_SIGN_IN } from '../../lib/client-pages';
import { recordOf } from '../../machines/record-detail.machine';
import { wireClientDocuments } from '../../machines/wiring/client-documents';
import { PatientCardFields } from '../clinical/PatientCardFields';
import { useRouteActor } from '../route-actor';
import { useSessionStatus } from '../session-status';
import { formatDateTime } from '../staff/format';
import { ClientGate, ClientPage, ErrorNotice, LinkNotice } from './parts';
import '../clinical/clinical.css';

type PatientCard = components['schemas']['PatientCard'];

const ignore = () => undefined;

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
  if (error) return <ErrorNotice code={error.code} onRetry={() => actorRef.send({ type: 'detail.retry' })} />;
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
      <div className="staff-form clinical-form">
        <PatientCardFields content={card.content} readOnly change={ignore} />
      </div>
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
