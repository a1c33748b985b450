import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { tKey } from '../../i18n/keys';
import { wireMailingList } from '../../machines/wiring/mailing-list';
import type { ActorRefFrom } from 'xstate';
import type { mailingListMachine, MailingListSync } from '../../machines/mailing-list.machine';
import { useRouteActor } from '../route-actor';
import { formatDateTime } from '../staff/format';
import '../staff/staff.css';

const ERROR_KEYS: Record<string, string> = {
  sync_running: tKey('staff:mailingList.errors.syncRunning'),
  mailing_list_not_configured: tKey('staff:mailingList.errors.notConfigured'),
  network_error: tKey('staff:errors.network'),
  forbidden: tKey('staff:errors.forbidden'),
};
const errorKey = (code: string | undefined) =>
  ERROR_KEYS[code ?? ''] ?? tKey('staff:errors.generic');

function SyncResult({ sync }: { sync: MailingListSync }) {
  const { t } = useTranslation('staff');
  return (
    <section aria-labelledby="mailing-list-last">
      <h2 id="mailing-list-last">{t('mailingList.lastSync')}</h2>
      <dl className="detail-list">
        <dt>{t('mailingList.status')}</dt>
        <dd>{t(`mailingList.statuses.${sync.status}`)}</dd>
        <dt>{t('mailingList.requestedAt')}</dt>
        <dd>{formatDateTime(sync.requestedAt)}</dd>
        {sync.finishedAt ? (
          <>
            <dt>{t('mailingList.finishedAt')}</dt>
            <dd>{formatDateTime(sync.finishedAt)}</dd>
          </>
        ) : null}
        <dt>{t('mailingList.added')}</dt>
        <dd>{sync.added}</dd>
        <dt>{t('mailingList.updated')}</dt>
        <dd>{sync.updated}</dd>
        <dt>{t('mailingList.failed')}</dt>
        <dd>{sync.failed}</dd>
      </dl>
      {sync.error ? (
        <p className="notice notice-error" role="alert">
          {t('mailingList.stopped', { reason: sync.error })}
        </p>
      ) : null}
      {sync.failures.length > 0 ? (
        <details>
          <summary>{t('mailingList.failures', { count: sync.failures.length })}</summary>
          <ul>
            {sync.failures.map((f) => (
              <li key={f.clientId}>
                <a href={`/clients/${f.clientId}`}>{t('mailingList.client')}</a>: {f.reason}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </section>
  );
}

/** `/admin/mailing-list` (ADMIN, SUPERADMIN): sync the newsletter list, watch it run, see bounces. */
export default function MailingListPage() {
  return <MailingListView actorRef={useRouteActor(wireMailingList)} />;
}

/** The page for a running mailing-list actor (the route's, or a test's). */
export function MailingListView({
  actorRef,
}: {
  actorRef: ActorRefFrom<typeof mailingListMachine>;
}) {
  const { t } = useTranslation('staff');
  const overview = useSelector(actorRef, (s) => s.context.overview);
  const error = useSelector(actorRef, (s) => s.context.error);
  const loaded = useSelector(actorRef, (s) => s.hasTag('loaded'));
  const busy = useSelector(actorRef, (s) => s.hasTag('busy'));
  const failed = useSelector(actorRef, (s) => s.hasTag('error'));
  const syncing = useSelector(actorRef, (s) => s.hasTag('syncing'));
  const canSync = useSelector(actorRef, (s) => s.can({ type: 'mailingList.sync' }));
  const canRefresh = useSelector(actorRef, (s) => s.can({ type: 'mailingList.refresh' }));
  const send = actorRef.send;
  const sync = overview?.sync ?? null;

  return (
    <article className="staff-page mailing-list-page" aria-busy={busy || syncing}>
      <h1>{t('mailingList.title')}</h1>
      <p>{t('mailingList.intro')}</p>
      {!loaded && busy ? (
        <p className="list-progress" role="status">
          <span className="spinner" aria-hidden="true" />
          {t('mailingList.loading')}
        </p>
      ) : null}
      {failed ? (
        <div className="notice notice-error" role="alert">
          <p>{t(errorKey(error?.code))}</p>
          {!loaded ? (
            <button
              type="button"
              className="button"
              onClick={() => send({ type: 'mailingList.retry' })}
            >
              {t('list.retry')}
            </button>
          ) : null}
        </div>
      ) : null}
      {loaded && overview ? (
        <>
          {!overview.configured ? (
            <p className="notice" role="note">
              {t('mailingList.errors.notConfigured')}
            </p>
          ) : null}
          <div className="page-actions">
            <button
              type="button"
              className="button button-primary"
              disabled={!canSync}
              onClick={() => send({ type: 'mailingList.sync' })}
            >
              {t('mailingList.syncNow')}
            </button>
            <button
              type="button"
              className="button"
              disabled={!canRefresh}
              onClick={() => send({ type: 'mailingList.refresh' })}
            >
              {t('mailingList.refresh')}
            </button>
          </div>
          {syncing && sync ? (
            <p role="status" className="list-progress">
              <span className="spinner" aria-hidden="true" />
              {sync.status === 'queued'
                ? t('mailingList.queued')
                : t('mailingList.progress', { processed: sync.processed, total: sync.total })}
              <progress max={Math.max(sync.total, 1)} value={sync.processed} />
            </p>
          ) : null}
          {sync && !syncing ? <SyncResult sync={sync} /> : null}
          {!sync ? <p>{t('mailingList.never')}</p> : null}
          <section aria-labelledby="mailing-list-counts">
            <h2 id="mailing-list-counts">{t('mailingList.counts')}</h2>
            <dl className="detail-list">
              <dt>{t('mailingList.consenting')}</dt>
              <dd>{overview.counts.consenting}</dd>
              <dt>{t('mailingList.unsubscribed')}</dt>
              <dd>{overview.counts.unsubscribed}</dd>
              <dt>{t('mailingList.bounced')}</dt>
              <dd>
                {t('mailingList.bouncedDetail', {
                  count: overview.counts.bounced,
                  hard: overview.counts.bouncedHard,
                  abuse: overview.counts.bouncedAbuse,
                })}
              </dd>
            </dl>
          </section>
        </>
      ) : null}
    </article>
  );
}
