import { useActorRef, useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import { WEBHOOK_TYPES } from '../../../shared/contract/enums';
import { clipboardCopyMachine } from '../../machines/wiring/auth';
import { wireWebhookDetail } from '../../machines/wiring/admin';
import type { webhookDetailMachine } from '../../machines/webhook-detail.machine';
import type { components } from '../../../shared/contract/product';
import { BusyButton } from '../parts/BusyButton';
import { useRouteActor } from '../route-actor';
import { tKey } from '../../i18n/keys';
import { type Column, Table } from '../staff/DataTable';
import { formatDateTime } from '../staff/format';
import { describedBy } from '../staff/ListParts';
import {
  adminErrorKey,
  DISABLED_KEYS,
  OUTCOME_KEYS,
  STATUS_KEYS,
  webhookFieldErrorKey,
  webhookTypeName,
} from './admin-text';
import '../staff/staff.css';
import './admin.css';

type WebhookType = components['schemas']['WebhookType'];
type Delivery = components['schemas']['WebhookDelivery'];
type DetailActor = ActorRefFrom<typeof webhookDetailMachine>;

const isWebhookType = (value: string | undefined): value is WebhookType =>
  (WEBHOOK_TYPES as readonly string[]).includes(value ?? '');

/** `/admin/webhooks/:type` (SUPERADMIN): one event type's endpoint, secret, test and log. */
export default function WebhookDetailPage({ params }: { params: { type?: string } }) {
  const { t } = useTranslation('admin');
  const type = params.type;
  if (!isWebhookType(type)) {
    return (
      <article className="staff-page admin-page">
        <h1>{t('breadcrumbs.webhook')}</h1>
        <p className="notice notice-error" role="alert">
          {t('errors.notFound')}
        </p>
        <Link href="/admin/webhooks">{t('webhook.back')}</Link>
      </article>
    );
  }
  return <WebhookDetail key={type} type={type} />;
}

function WebhookDetail({ type }: { type: WebhookType }) {
  const actorRef = useRouteActor(wireWebhookDetail, { input: { type } });
  return <WebhookDetailView type={type} actorRef={actorRef} />;
}

/** The page's content for a running `webhookDetail` actor (model-based tests render it alone). */
export function WebhookDetailView({
  type,
  actorRef,
}: {
  type: WebhookType;
  actorRef: DetailActor;
}) {
  const { t } = useTranslation('admin');
  return (
    <article className="staff-page admin-page">
      <h1>{t('webhook.title', { type: webhookTypeName(t, type) })}</h1>
      <p>
        <Link href="/admin/webhooks">{t('webhook.back')}</Link>
      </p>
      <Settings actorRef={actorRef} />
      <Secret actorRef={actorRef} />
      <Rotation actorRef={actorRef} />
      <TestEvent actorRef={actorRef} />
      <DeliveryLog actorRef={actorRef} />
    </article>
  );
}

function Settings({ actorRef }: { actorRef: DetailActor }) {
  const { t } = useTranslation('admin');
  const status = useSelector(actorRef, (s) =>
    s.hasTag('loading')
      ? 'loading'
      : s.hasTag('loadError')
        ? 'loadFailed'
        : s.hasTag('saveError')
          ? 'failed'
          : 'editing',
  );
  const saving = useSelector(actorRef, (s) => s.hasTag('saving'));
  const url = useSelector(actorRef, (s) => s.context.url);
  const active = useSelector(actorRef, (s) => s.context.active);
  const fieldErrors = useSelector(actorRef, (s) => s.context.fieldErrors);
  const error = useSelector(actorRef, (s) => s.context.error);
  const saveError = useSelector(actorRef, (s) => s.context.saveError);
  const webhook = useSelector(actorRef, (s) => s.context.webhook);
  const send = actorRef.send;

  if (status === 'loading') {
    return (
      <p className="list-progress" role="status">
        <span className="spinner" aria-hidden="true" />
        {t('webhook.loading')}
      </p>
    );
  }
  if (status === 'loadFailed') {
    return (
      <div className="notice notice-error" role="alert">
        <p>{t(adminErrorKey(error))}</p>
        <button type="button" className="button" onClick={() => send({ type: 'settings.retry' })}>
          {t('webhook.retry')}
        </button>
      </div>
    );
  }
  const locked = saving || status === 'failed';
  return (
    <section className="detail-section" aria-labelledby="webhook-settings">
      <h2 id="webhook-settings">{t('webhook.settingsTitle')}</h2>
      {webhook?.url ? (
        <p>
          {webhook.active ? t('webhook.stateActive') : t('webhook.stateInactive')}{' '}
          {webhook.disabledReason ? t(DISABLED_KEYS[webhook.disabledReason]) : null}{' '}
          {webhook.secretSet ? t('webhook.secretSet') : null}{' '}
          {webhook.previousSecretUntil
            ? t('webhook.previousSecretUntil', {
                time: formatDateTime(webhook.previousSecretUntil),
              })
            : null}
        </p>
      ) : null}
      <form
        className="staff-form webhook-form"
        aria-label={t('webhook.formLabel')}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          send({ type: 'form.submit' });
        }}
      >
        <div className={fieldErrors.url ? 'field has-error' : 'field'}>
          <label htmlFor="webhook-url">{t('webhook.url')}</label>
          <input
            {...describedBy('webhook-url', fieldErrors.url, 'hint')}
            type="url"
            value={url}
            maxLength={2000}
            required
            disabled={locked}
            autoComplete="off"
            onChange={(e) => send({ type: 'form.change', field: 'url', value: e.target.value })}
          />
          <p id="webhook-url-hint" className="field-hint">
            {t('webhook.urlHint')}
          </p>
          {fieldErrors.url ? (
            <p id="webhook-url-error" className="field-error">
              {t(webhookFieldErrorKey(fieldErrors.url))}
            </p>
          ) : null}
        </div>
        <div className="field field-check">
          <label>
            <input
              type="checkbox"
              checked={active}
              disabled={locked}
              onChange={(e) =>
                send({ type: 'form.change', field: 'active', value: e.target.checked })
              }
            />{' '}
            {t('webhook.active')}
          </label>
        </div>
        {status === 'failed' ? (
          <div className="notice notice-error" role="alert">
            <p>{t(adminErrorKey(saveError))}</p>
            <div className="form-actions">
              <button type="button" className="button" onClick={() => send({ type: 'form.retry' })}>
                {t('webhook.retry')}
              </button>
              <button type="button" className="button" onClick={() => send({ type: 'form.edit' })}>
                {t('webhook.editAgain')}
              </button>
            </div>
          </div>
        ) : null}
        <div className="form-actions">
          <BusyButton
            type="submit"
            busy={saving}
            disabled={locked}
            label={t('webhook.save')}
            busyLabel={t('webhook.saving')}
          />
        </div>
      </form>
    </section>
  );
}

/** The secret the last save or rotation answered: shown once, with a copy button. */
function Secret({ actorRef }: { actorRef: DetailActor }) {
  const { t } = useTranslation('admin');
  const secret = useSelector(actorRef, (s) => s.context.secret);
  const from = useSelector(actorRef, (s) => s.context.secretFrom);
  const copy = useActorRef(clipboardCopyMachine);
  const copied = useSelector(copy, (s) => s.hasTag('copied'));
  const copyFailed = useSelector(copy, (s) => s.hasTag('copyFailed'));
  if (secret === null) return null;
  return (
    <section className="detail-section notice notice-success" aria-labelledby="webhook-secret">
      <h2 id="webhook-secret">{t('webhook.secret.title')}</h2>
      <p>
        {from === 'rotated' ? t('webhook.secret.rotatedIntro') : t('webhook.secret.savedIntro')}
      </p>
      <code className="webhook-secret" data-testid="webhook-secret">
        {secret}
      </code>
      <p>
        <strong>{t('webhook.secret.once')}</strong>
      </p>
      <div className="form-actions">
        <button
          type="button"
          className="button button-primary"
          onClick={() => copy.send({ type: 'copy', text: secret })}
        >
          {t('webhook.secret.copy')}
        </button>{' '}
        <button
          type="button"
          className="button"
          onClick={() => actorRef.send({ type: 'secret.dismiss' })}
        >
          {t('webhook.secret.dismiss')}
        </button>{' '}
        <span role="status" aria-live="polite">
          {copied ? t('webhook.secret.copied') : copyFailed ? t('webhook.secret.copyFailed') : ''}
        </span>
      </div>
    </section>
  );
}

function Rotation({ actorRef }: { actorRef: DetailActor }) {
  const { t } = useTranslation('admin');
  const canAsk = useSelector(actorRef, (s) => s.can({ type: 'rotate.ask' }));
  const asking = useSelector(actorRef, (s) => s.hasTag('rotateAsking'));
  const rotating = useSelector(actorRef, (s) => s.hasTag('rotating'));
  const failed = useSelector(actorRef, (s) => s.hasTag('rotateError'));
  const error = useSelector(actorRef, (s) => s.context.rotateError);
  const secretSet = useSelector(actorRef, (s) => !!s.context.webhook?.secretSet);
  const send = actorRef.send;
  if (!secretSet) return null;
  return (
    <section className="detail-section" aria-label={t('webhook.rotate.button')}>
      {asking || rotating || failed ? (
        <div className="confirm-box" role="group" aria-label={t('webhook.rotate.button')}>
          <p>{t('webhook.rotate.question')}</p>
          {failed ? (
            <p className="notice notice-error" role="alert">
              {t('webhook.rotate.error')} {t(adminErrorKey(error))}
            </p>
          ) : null}
          <div className="form-actions">
            <BusyButton
              busy={rotating}
              className="button button-danger"
              label={failed ? t('webhook.rotate.retry') : t('webhook.rotate.confirm')}
              busyLabel={t('webhook.rotate.running')}
              onClick={() => send({ type: failed ? 'rotate.retry' : 'rotate.confirm' })}
            />
            <button
              type="button"
              className="button"
              disabled={rotating}
              onClick={() => send({ type: 'rotate.abort' })}
            >
              {t('webhook.rotate.abort')}
            </button>
          </div>
        </div>
      ) : (
        <button
          type="button"
          className="button"
          disabled={!canAsk}
          onClick={() => send({ type: 'rotate.ask' })}
        >
          {t('webhook.rotate.button')}
        </button>
      )}
    </section>
  );
}

function TestEvent({ actorRef }: { actorRef: DetailActor }) {
  const { t } = useTranslation('admin');
  const canSend = useSelector(actorRef, (s) => s.can({ type: 'test.send' }));
  const sending = useSelector(actorRef, (s) => s.hasTag('testSending'));
  const sent = useSelector(actorRef, (s) => s.hasTag('testSent'));
  const failed = useSelector(actorRef, (s) => s.hasTag('testError'));
  const error = useSelector(actorRef, (s) => s.context.testError);
  const configured = useSelector(actorRef, (s) => !!s.context.webhook?.url);
  const loaded = useSelector(actorRef, (s) => s.context.webhook !== null);
  if (!loaded) return null;
  return (
    <section className="detail-section" aria-labelledby="webhook-test">
      <h2 id="webhook-test">{t('webhook.test.title')}</h2>
      <p>{configured ? t('webhook.test.intro') : t('webhook.test.notConfigured')}</p>
      <BusyButton
        busy={sending}
        className="button"
        disabled={!canSend}
        label={t('webhook.test.button')}
        busyLabel={t('webhook.test.running')}
        onClick={() => actorRef.send({ type: 'test.send' })}
      />
      <p role="status" aria-live="polite">
        {sent ? t('webhook.test.sent') : ''}
      </p>
      {failed ? (
        <p className="notice notice-error" role="alert">
          {t('webhook.test.error')} {t(adminErrorKey(error))}
        </p>
      ) : null}
    </section>
  );
}

function DeliveryLog({ actorRef }: { actorRef: DetailActor }) {
  const { t } = useTranslation('admin');
  const deliveries = useSelector(actorRef, (s) => s.context.deliveries);
  const loading = useSelector(actorRef, (s) => s.hasTag('logLoading'));
  const failed = useSelector(actorRef, (s) => s.hasTag('logError'));
  const error = useSelector(actorRef, (s) => s.context.logError);
  const canRefresh = useSelector(actorRef, (s) => s.can({ type: 'log.refresh' }));
  return (
    <section className="detail-section" aria-labelledby="webhook-log" aria-busy={loading}>
      <h2 id="webhook-log">{t('webhook.log.title')}</h2>
      <p>{t('webhook.log.intro')}</p>
      <div className="page-actions">
        <button
          type="button"
          className="button"
          disabled={!canRefresh}
          onClick={() => actorRef.send({ type: 'log.refresh' })}
        >
          {t('webhook.log.refresh')}
        </button>
      </div>
      {loading ? (
        <p className="list-progress" role="status">
          <span className="spinner" aria-hidden="true" />
          {t('webhook.log.loading')}
        </p>
      ) : null}
      {failed ? (
        <p className="notice notice-error" role="alert">
          {t('webhook.log.error')} {t(adminErrorKey(error))}
        </p>
      ) : null}
      {!loading && !failed && deliveries.length === 0 ? (
        <p className="list-empty">{t('webhook.log.empty')}</p>
      ) : null}
      {deliveries.map((delivery) => (
        <DeliveryItem key={delivery.messageId} actorRef={actorRef} delivery={delivery} />
      ))}
    </section>
  );
}

type Attempt = Delivery['attempts'][number] & { id: string };

const NONE = tKey('admin:webhook.log.none');

/** One row per delivery attempt. */
const ATTEMPT_COLUMNS: readonly Column<Attempt>[] = [
  {
    header: tKey('admin:webhook.log.columns.no'),
    primary: true,
    cell: (attempt) => <AttemptNo attempt={attempt} />,
  },
  {
    header: tKey('admin:webhook.log.columns.time'),
    cell: (attempt) => formatDateTime(attempt.attemptedAt),
  },
  {
    header: tKey('admin:webhook.log.columns.result'),
    cell: (attempt, t) => t(OUTCOME_KEYS[attempt.outcome]),
  },
  {
    header: tKey('admin:webhook.log.columns.status'),
    cell: (attempt, t) => attempt.httpStatus ?? t(NONE),
  },
  {
    header: tKey('admin:webhook.log.columns.duration'),
    cell: (attempt, t) => t(tKey('admin:webhook.log.duration'), { ms: attempt.durationMs }),
  },
  {
    header: tKey('admin:webhook.log.columns.error'),
    cell: (attempt, t) => attempt.error ?? t(NONE),
  },
  {
    header: tKey('admin:webhook.log.columns.answer'),
    cell: (attempt, t) =>
      attempt.responseSnippet ? (
        <pre className="delivery-snippet">{attempt.responseSnippet}</pre>
      ) : (
        t(NONE)
      ),
  },
];

function AttemptNo({ attempt }: { attempt: Attempt }) {
  const { t } = useTranslation('admin');
  return (
    <>
      {attempt.attemptNo}
      {attempt.manual ? (
        <>
          {' '}
          <span className="badge">{t('webhook.log.manual')}</span>
        </>
      ) : null}
    </>
  );
}

function DeliveryItem({ actorRef, delivery }: { actorRef: DetailActor; delivery: Delivery }) {
  const { t } = useTranslation('admin');
  const canRedeliver = useSelector(actorRef, (s) =>
    s.can({ type: 'delivery.redeliver', messageId: delivery.messageId }),
  );
  const running = useSelector(
    actorRef,
    (s) => s.hasTag('redelivering') && s.context.redelivering === delivery.messageId,
  );
  const error = useSelector(actorRef, (s) =>
    s.hasTag('redeliverError') && s.context.redelivering === delivery.messageId
      ? s.context.redeliverError
      : null,
  );
  const time = formatDateTime(delivery.createdAt);
  const headingId = `delivery-${delivery.messageId}`;
  return (
    <section className="delivery" aria-labelledby={headingId} data-message-id={delivery.messageId}>
      <h3 id={headingId}>
        {t('webhook.log.message', { event: webhookTypeName(t, delivery.eventType), time })}
      </h3>
      <p className="delivery-meta">
        <span
          className={
            delivery.status === 'delivered'
              ? 'badge badge-ok'
              : delivery.status === 'failed'
                ? 'badge badge-cancelled'
                : 'badge'
          }
        >
          {t(STATUS_KEYS[delivery.status])}
        </span>{' '}
        {t('webhook.log.messageId', { id: delivery.messageId })}
        {delivery.nextAttemptAt ? (
          <> · {t('webhook.log.nextAttempt', { time: formatDateTime(delivery.nextAttemptAt) })}</>
        ) : null}
      </p>
      {delivery.attempts.length === 0 ? (
        <p>{t('webhook.log.noAttempts')}</p>
      ) : (
        <Table
          columns={ATTEMPT_COLUMNS}
          rows={delivery.attempts.map((attempt) => ({ ...attempt, id: String(attempt.attemptNo) }))}
          caption={t('webhook.log.attemptsLabel')}
        />
      )}
      <BusyButton
        busy={running}
        className="button"
        disabled={!canRedeliver}
        label={t('webhook.log.redeliver')}
        busyLabel={t('webhook.log.redelivering')}
        onClick={() => actorRef.send({ type: 'delivery.redeliver', messageId: delivery.messageId })}
      />
      {error ? (
        <p className="notice notice-error" role="alert">
          {t('webhook.log.redeliverError')} {t(adminErrorKey(error))}
        </p>
      ) : null}
    </section>
  );
}
