import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { researchExportMachine } from '../../machines/research-export.machine';
import { wireResearchExport } from '../../machines/wiring/research';
import { BusyButton } from '../parts/BusyButton';
import { useRouteActor } from '../route-actor';
import { formatNumber } from '../staff/format';
import { adminErrorKey } from './admin-text';
import '../staff/staff.css';
import './admin.css';

/**
 * `/admin/research-export` (ADMIN, SUPERADMIN): how many clients consented to research, then
 * the pseudonymised ZIP as a download.
 */
export default function ResearchExportPage() {
  return <ResearchExportView actorRef={useRouteActor(wireResearchExport)} />;
}

/** The page on its machine (rendered on a test actor by the model-based test). */
export function ResearchExportView({
  actorRef,
}: {
  actorRef: ActorRefFrom<typeof researchExportMachine>;
}) {
  const { t } = useTranslation('admin');
  const summary = useSelector(actorRef, (s) => s.context.summary);
  const error = useSelector(actorRef, (s) => s.context.error);
  const loaded = useSelector(actorRef, (s) => s.hasTag('loaded'));
  const busy = useSelector(actorRef, (s) => s.hasTag('busy'));
  const downloading = useSelector(actorRef, (s) => s.hasTag('downloading'));
  const failed = useSelector(actorRef, (s) => s.hasTag('error'));
  const done = useSelector(actorRef, (s) => s.hasTag('done'));
  const canDownload = useSelector(actorRef, (s) => s.can({ type: 'research.download' }));
  const canRefresh = useSelector(actorRef, (s) => s.can({ type: 'research.refresh' }));
  const send = actorRef.send;

  return (
    <article className="staff-page admin-page" aria-busy={busy}>
      <h1>{t('researchExport.title')}</h1>
      <p>{t('researchExport.intro')}</p>
      {!loaded && busy ? (
        <p className="list-progress" role="status">
          <span className="spinner" aria-hidden="true" />
          {t('researchExport.loading')}
        </p>
      ) : null}
      {loaded && summary ? (
        <>
          <section aria-labelledby="research-counts">
            <h2 id="research-counts">{t('researchExport.countsTitle')}</h2>
            <dl className="sync-result">
              <dt>{t('researchExport.participants')}</dt>
              <dd>{formatNumber(summary.participants)}</dd>
              <dt>{t('researchExport.appointments')}</dt>
              <dd>{formatNumber(summary.appointments)}</dd>
            </dl>
          </section>
          <section aria-labelledby="research-contents">
            <h2 id="research-contents">{t('researchExport.contentsTitle')}</h2>
            <ul>
              <li>{t('researchExport.contents.pseudonyms')}</li>
              <li>{t('researchExport.contents.generalised')}</li>
              <li>{t('researchExport.contents.kAnonymity')}</li>
              <li>{t('researchExport.contents.files')}</li>
            </ul>
          </section>
          {!summary.keyConfigured ? (
            <p className="notice" role="note">
              {t('researchExport.keyMissing')}
            </p>
          ) : null}
          <div className="page-actions">
            <BusyButton
              busy={downloading}
              disabled={!canDownload}
              label={t('researchExport.download')}
              busyLabel={t('researchExport.downloading')}
              onClick={() => send({ type: 'research.download' })}
            />
            <button
              type="button"
              className="button"
              disabled={!canRefresh}
              onClick={() => send({ type: 'research.refresh' })}
            >
              {t('researchExport.refresh')}
            </button>
          </div>
        </>
      ) : null}
      <div role="status" aria-live="polite">
        {downloading ? (
          <p className="list-progress">
            <span className="spinner" aria-hidden="true" />
            {t('researchExport.downloadingHint')}
          </p>
        ) : null}
        {done ? <p className="notice notice-success">{t('researchExport.done')}</p> : null}
      </div>
      {failed ? (
        <div className="notice notice-error" role="alert">
          <p>{t(adminErrorKey(error))}</p>
          {!loaded ? (
            <button
              type="button"
              className="button"
              onClick={() => send({ type: 'research.retry' })}
            >
              {t('researchExport.retry')}
            </button>
          ) : null}
        </div>
      ) : null}
    </article>
  );
}
