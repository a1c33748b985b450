import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { CLIENT_HOME } from '../../lib/client-pages';
import type { CancelTarget } from '../../machines/client-cancel.machine';
import { wireClientCancel } from '../../machines/wiring/client-cancel';
import { useRouteMachine } from '../route-actor';
import { AppointmentFacts, ClientGate, ClientPage, ErrorNotice } from './parts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `/client-signup/cancel-appointment/{appointmentId}`: the signed-in client cancels by the
 * appointment's id; with the meeting code from the invitation instead of an id, anyone holding
 * the code cancels without signing in (`DELETE /appointment/meetingCode/{code}`).
 */
export default function CancelPage({ params }: { params?: { appointmentId?: string } }) {
  const { t } = useTranslation('client');
  const value = params?.appointmentId ?? '';
  const target: CancelTarget = UUID.test(value)
    ? { kind: 'own', appointmentId: value }
    : { kind: 'code', code: value.trim().toLowerCase() };
  return (
    <ClientPage title={t('cancel.title')}>
      {target.kind === 'own' ? (
        <ClientGate>
          <Cancel target={target} />
        </ClientGate>
      ) : (
        <Cancel target={target} />
      )}
    </ClientPage>
  );
}

function Cancel({ target }: { target: CancelTarget }) {
  const { t } = useTranslation('client');
  const [state, send] = useRouteMachine(wireClientCancel, {
    input: { target, now: () => Date.now() },
  });
  const { appointment, error } = state.context;
  const busy = state.hasTag('busy');
  const facts = appointment ? <AppointmentFacts {...appointment} /> : null;
  const next =
    target.kind === 'own' ? (
      <Link href={CLIENT_HOME} className="button">
        {t('actions.toOverview')}
      </Link>
    ) : null;

  if (state.hasTag('loading')) return <p role="status">{t('cancel.loading')}</p>;
  if (state.hasTag('loadError')) {
    return <ErrorNotice code={error?.code ?? 'unknown'} onRetry={() => send({ type: 'retry' })} />;
  }
  if (state.hasTag('notFound')) {
    return (
      <div className="notice">
        <p>{t(target.kind === 'code' ? 'cancel.unknownCode' : 'errors.not_found')}</p>
        {next}
      </div>
    );
  }
  if (state.hasTag('alreadyCancelled')) {
    return (
      <div className="notice">
        {facts}
        <p>{t('cancel.alreadyCancelled')}</p>
        {next}
      </div>
    );
  }
  if (state.hasTag('tooLate')) {
    return (
      <div className="notice notice-error" role="alert">
        {facts}
        <p>{t('cancel.tooLate')}</p>
        {next}
      </div>
    );
  }
  if (state.hasTag('cancelled')) {
    return (
      <section className="client-success" aria-labelledby="client-cancelled-title">
        <h2 id="client-cancelled-title">{t('cancel.doneTitle')}</h2>
        {facts}
        <p>{t('cancel.doneText')}</p>
        <Link href="/client-signup/appointment-selection" className="button button-primary">
          {t('cancel.bookNew')}
        </Link>
      </section>
    );
  }
  return (
    <section aria-labelledby="client-cancel-confirm">
      <h2 id="client-cancel-confirm">{t('cancel.confirmTitle')}</h2>
      {facts}
      <p>{t('cancel.confirmText')}</p>
      {error ? <ErrorNotice code={error.code} /> : null}
      <div className="form-actions">
        <button
          type="button"
          className="button button-danger"
          disabled={busy}
          onClick={() => send({ type: 'cancel.confirm' })}
        >
          {busy ? t('cancel.cancelling') : t('cancel.confirm')}
        </button>
        {next}
      </div>
    </section>
  );
}
