import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { WebhookListRow } from '../../machines/webhook-list.machine';
import { wireWebhookList } from '../../machines/wiring/admin';
import { useRouteActor } from '../route-actor';
import { formatDateTime } from '../staff/format';
import { adminErrorKey, DISABLED_KEYS, STATUS_KEYS, webhookTypeName } from './admin-text';
import '../staff/staff.css';
import './admin.css';

/** `/admin/webhooks` (SUPERADMIN): one row per event type. */
export default function WebhooksPage() {
  const { t } = useTranslation('admin');
  const actorRef = useRouteActor(wireWebhookList);
  const rows = useSelector(actorRef, (s) => s.context.rows);
  const busy = useSelector(actorRef, (s) => s.hasTag('busy'));
  const failed = useSelector(actorRef, (s) => s.hasTag('error'));
  const error = useSelector(actorRef, (s) => s.context.error);
  const canRefresh = useSelector(actorRef, (s) => s.can({ type: 'list.refresh' }));

  return (
    <article className="staff-page admin-page" aria-busy={busy}>
      <h1>{t('webhooks.title')}</h1>
      <p>{t('webhooks.intro')}</p>
      <div className="page-actions">
        <button
          type="button"
          className="button"
          disabled={!canRefresh}
          onClick={() => actorRef.send({ type: 'list.refresh' })}
        >
          {t('webhooks.refresh')}
        </button>
      </div>
      {busy ? (
        <p className="list-progress" role="status">
          <span className="spinner" aria-hidden="true" />
          {t('webhooks.loading')}
        </p>
      ) : null}
      {failed ? (
        <div className="notice notice-error" role="alert">
          <p>
            {t('webhooks.error')} {t(adminErrorKey(error))}
          </p>
          <button type="button" className="button" onClick={() => actorRef.send({ type: 'list.retry' })}>
            {t('webhooks.retry')}
          </button>
        </div>
      ) : null}
      {rows.length > 0 ? (
        <div className="table-scroll">
          <table className={busy ? 'staff-table list-rows is-stale' : 'staff-table'} aria-label={t('webhooks.tableLabel')}>
            <thead>
              <tr>
                <th scope="col">{t('webhooks.columns.type')}</th>
                <th scope="col">{t('webhooks.columns.url')}</th>
                <th scope="col">{t('webhooks.columns.state')}</th>
                <th scope="col">{t('webhooks.columns.last')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <WebhookRow key={row.type} webhook={row} />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </article>
  );
}

function WebhookRow({ webhook }: { webhook: WebhookListRow }) {
  const { t } = useTranslation('admin');
  const last = webhook.lastDelivery;
  const name = webhookTypeName(t, webhook.type);
  return (
    <tr data-webhook-type={webhook.type}>
      <th scope="row">
        <Link href={`/admin/webhooks/${webhook.type}`} aria-label={t('webhooks.editLabel', { type: name })}>
          {name}
        </Link>
      </th>
      <td className="webhook-url">{webhook.url ?? t('webhooks.notConfigured')}</td>
      <td>
        {webhook.url === null ? (
          t('webhooks.notConfigured')
        ) : (
          <span className={webhook.active ? 'badge badge-ok' : 'badge'}>
            {webhook.active ? t('webhooks.active') : t('webhooks.inactive')}
          </span>
        )}
        {webhook.disabledReason ? <p>{t(DISABLED_KEYS[webhook.disabledReason])}</p> : null}
        {webhook.failingSince && !webhook.disabledReason ? (
          <p>{t('webhooks.failingSince', { time: formatDateTime(webhook.failingSince) })}</p>
        ) : null}
      </td>
      <td>
        {last ? (
          <>
            <span className={last.status === 'delivered' ? 'badge badge-ok' : last.status === 'failed' ? 'badge badge-cancelled' : 'badge'}>
              {t(STATUS_KEYS[last.status])}
            </span>{' '}
            {formatDateTime(last.attemptedAt ?? last.createdAt)}
            {last.httpStatus !== null ? ` · HTTP ${last.httpStatus}` : null}
          </>
        ) : (
          t('webhooks.noDelivery')
        )}
      </td>
    </tr>
  );
}
