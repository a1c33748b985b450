import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { wireEmailSync } from '../../machines/wiring/admin';
import { BusyButton } from '../parts/BusyButton';
import { useRouteActor } from '../route-actor';
import { formatNumber } from '../staff/format';
import { adminErrorKey } from './admin-text';
import '../staff/staff.css';
import './admin.css';

/** `/admin/email-sync` (SUPERADMIN): compare the accounts' e-mail addresses with the auth provider. */
export default function EmailSyncPage() {
  const { t } = useTranslation('admin');
  const actorRef = useRouteActor(wireEmailSync);
  const busy = useSelector(actorRef, (s) => s.hasTag('busy'));
  const failed = useSelector(actorRef, (s) => s.hasTag('error'));
  const result = useSelector(actorRef, (s) => (s.hasTag('done') ? s.context.result : null));
  const error = useSelector(actorRef, (s) => s.context.error);
  const canStart = useSelector(actorRef, (s) => s.can({ type: 'sync.start' }));
  return (
    <article className="staff-page admin-page" aria-busy={busy}>
      <h1>{t('emailSync.title')}</h1>
      <p>{t('emailSync.intro')}</p>
      <div className="page-actions">
        <BusyButton
          busy={busy}
          disabled={!canStart}
          label={t('emailSync.button')}
          busyLabel={t('emailSync.running')}
          onClick={() => actorRef.send({ type: 'sync.start' })}
        />
      </div>
      <div role="status" aria-live="polite">
        {busy ? (
          <p className="list-progress">
            <span className="spinner" aria-hidden="true" />
            {t('emailSync.running')}
          </p>
        ) : null}
        {result ? (
          <section aria-labelledby="sync-result">
            <h2 id="sync-result">{t('emailSync.resultTitle')}</h2>
            <dl className="sync-result">
              <dt>{t('emailSync.checked')}</dt>
              <dd>{formatNumber(result.checked)}</dd>
              <dt>{t('emailSync.usersUpdated')}</dt>
              <dd>{formatNumber(result.usersUpdated)}</dd>
              <dt>{t('emailSync.clientsUpdated')}</dt>
              <dd>{formatNumber(result.clientsUpdated)}</dd>
              <dt>{t('emailSync.missing')}</dt>
              <dd>{formatNumber(result.missing)}</dd>
            </dl>
          </section>
        ) : null}
      </div>
      {failed ? (
        <p className="notice notice-error" role="alert">
          {t(adminErrorKey(error))}
        </p>
      ) : null}
    </article>
  );
}
