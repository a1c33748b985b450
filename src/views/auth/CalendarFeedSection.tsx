import { useActorRef, useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { wireCalendarFeed } from '../../machines/wiring/calendar-feed';
import { clipboardCopyMachine } from '../../machines/wiring/auth';
import { useRouteActor } from '../route-actor';
import { errorKey } from '../staff/ListParts';
import { formatDateTime } from '../staff/format';
import './calendar-feed.css';

/**
 * "Kalender abonnieren" on a coach's profile: the secret subscription address (shown once,
 * after creating or renewing it) with a copy button, renewing it, and how to add it to
 * Outlook, Apple Kalender and Google Kalender.
 */
export function CalendarFeedSection({ coachId }: { coachId: string }) {
  const { t } = useTranslation('scheduling');
  const actorRef = useRouteActor(wireCalendarFeed, { input: { coachId } });
  const state = useSelector(actorRef, (s) => s);
  const copy = useActorRef(clipboardCopyMachine);
  const copied = useSelector(copy, (s) => s.hasTag('copied'));
  const copyFailed = useSelector(copy, (s) => s.hasTag('copyFailed'));
  const { status, feed, error } = state.context;
  const busy = state.hasTag('busy');
  const send = actorRef.send;
  return (
    <section className="detail-section calendar-feed" aria-labelledby="calendar-feed-title">
      <h2 id="calendar-feed-title">{t('feed.title')}</h2>
      <p>{t('feed.intro')}</p>
      {state.hasTag('loading') ? <p role="status">{t('feed.loading')}</p> : null}
      {state.hasTag('error') ? (
        <div className="notice notice-error" role="alert">
          <p>{t(errorKey(error))}</p>
          <button type="button" className="button" onClick={() => send({ type: 'feed.retry' })}>
            {t('feed.retry')}
          </button>
        </div>
      ) : null}
      {status ? (
        <p>
          {status.active && status.createdAt
            ? t('feed.activeSince', { when: formatDateTime(status.createdAt) })
            : t('feed.none')}
        </p>
      ) : null}
      {feed ? (
        <div className="notice notice-success">
          <label htmlFor="calendar-feed-url">{t('feed.urlLabel')}</label>
          <input
            id="calendar-feed-url"
            className="calendar-feed-url"
            type="text"
            readOnly
            value={feed.url}
            onFocus={(event) => event.currentTarget.select()}
          />
          <p className="field-hint">{t('feed.once')}</p>
          <div className="form-actions">
            <button
              type="button"
              className="button button-primary"
              onClick={() => copy.send({ type: 'copy', text: feed.url })}
            >
              {t('feed.copy')}
            </button>
            <a className="button" href={feed.webcalUrl}>
              {t('feed.open')}
            </a>
            <span role="status" aria-live="polite">
              {copied ? t('feed.copied') : copyFailed ? t('feed.copyFailed') : ''}
            </span>
          </div>
        </div>
      ) : null}
      {state.hasTag('confirmRenew') ? (
        <div
          className="confirm-box"
          role="alertdialog"
          aria-labelledby="calendar-feed-renew-question"
        >
          <p id="calendar-feed-renew-question">
            <strong>{t('feed.renewQuestion')}</strong>
          </p>
          <div className="form-actions">
            <button
              type="button"
              className="button button-primary"
              onClick={() => send({ type: 'renew.confirm' })}
            >
              {t('feed.renewConfirm')}
            </button>
            <button type="button" className="button" onClick={() => send({ type: 'renew.abort' })}>
              {t('feed.renewAbort')}
            </button>
          </div>
        </div>
      ) : null}
      {!state.hasTag('error') && !state.hasTag('loading') && error ? (
        <div className="notice notice-error" role="alert">
          <p>{t(errorKey(error))}</p>
        </div>
      ) : null}
      {state.can({ type: 'feed.create' }) || (busy && !status?.active) ? (
        <button
          type="button"
          className="button button-primary"
          disabled={busy}
          onClick={() => send({ type: 'feed.create' })}
        >
          {busy ? t('feed.working') : t('feed.create')}
        </button>
      ) : null}
      {state.can({ type: 'feed.renew' }) ? (
        <button type="button" className="button" onClick={() => send({ type: 'feed.renew' })}>
          {t('feed.renew')}
        </button>
      ) : null}
      <h3>{t('feed.howTitle')}</h3>
      <dl className="calendar-feed-apps">
        <dt>{t('feed.outlookTitle')}</dt>
        <dd>{t('feed.outlook')}</dd>
        <dt>{t('feed.appleTitle')}</dt>
        <dd>{t('feed.apple')}</dd>
        <dt>{t('feed.googleTitle')}</dt>
        <dd>{t('feed.google')}</dd>
      </dl>
      <p className="field-hint">{t('feed.privacy')}</p>
    </section>
  );
}
