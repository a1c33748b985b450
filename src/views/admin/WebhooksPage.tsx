import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { WebhookListRow } from '../../machines/webhook-list.machine';
import { wireWebhookList } from '../../machines/wiring/admin';
import { useRouteActor } from '../route-actor';
import { tKey } from '../../i18n/keys';
import { type Column, Table } from '../staff/DataTable';
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
          <button
            type="button"
            className="button"
            onClick={() => actorRef.send({ type: 'list.retry' })}
          >
            {t('webhooks.retry')}
          </button>
        </div>
      ) : null}
      {rows.length > 0 ? (
        <Table
          columns={WEBHOOK_COLUMNS}
          rows={rows.map((row) => ({ ...row, id: row.type }))}
          caption={t('webhooks.tableLabel')}
          className={busy ? 'list-rows is-stale' : undefined}
        />
      ) : null}
    </article>
  );
}

/** The webhooks, one row per event type: where it goes, whether it is on, how the last delivery went. */
const WEBHOOK_COLUMNS: readonly Column<WebhookListRow & { id: string }>[] = [
  {
    header: tKey('admin:webhooks.columns.type'),
    rowHeader: true,
    cell: (webhook) => <WebhookName type={webhook.type} />,
  },
  {
    header: tKey('admin:webhooks.columns.url'),
    cell: (webhook, t) => (
      <span className="webhook-url">{webhook.url ?? t(tKey('admin:webhooks.notConfigured'))}</span>
    ),
  },
  {
    header: tKey('admin:webhooks.columns.state'),
    cell: (webhook) => <WebhookState webhook={webhook} />,
  },
  {
    header: tKey('admin:webhooks.columns.last'),
    cell: (webhook) => <LastDelivery webhook={webhook} />,
  },
];

function WebhookName({ type }: { type: WebhookListRow['type'] }) {
  const { t } = useTranslation('admin');
  const name = webhookTypeName(t, type);
  return (
    <Link href={`/admin/webhooks/${type}`} aria-label={t('webhooks.editLabel', { type: name })}>
      {name}
    </Link>
  );
}

function WebhookState({ webhook }: { webhook: WebhookListRow }) {
  const { t } = useTranslation('admin');
  return (
    <>
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
    </>
  );
}

function LastDelivery({ webhook }: { webhook: WebhookListRow }) {
  const { t } = useTranslation('admin');
  const last = webhook.lastDelivery;
  if (!last) return <>{t('webhooks.noDelivery')}</>;
  return (
    <>
      <span
        className={
          last.status === 'delivered'
            ? 'badge badge-ok'
            : last.status === 'failed'
              ? 'badge badge-cancelled'
              : 'badge'
        }
      >
        {t(STATUS_KEYS[last.status])}
      </span>{' '}
      {formatDateTime(last.attemptedAt ?? last.createdAt)}
      {last.httpStatus !== null ? ` · HTTP ${last.httpStatus}` : null}
    </>
  );
}
