import { useSelector } from '@xstate/react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import { secondsUntilOpen, type clientMeetingMachine } from '../../machines/client-meeting.machine';
import { Busy, ErrorNotice, RoomContainer, TYPE_LABELS, When, dateOf, errorKey, formatCountdown, timeOf } from './parts';

/** A day in seconds: longer waits show only the opening time, no running countdown. */
const COUNTDOWN_LIMIT_S = 24 * 60 * 60;

/** The client's meeting page: renders the client meeting machine's state. */
export function ClientMeetingView({ actorRef }: { actorRef: ActorRefFrom<typeof clientMeetingMachine> }) {
  const { t } = useTranslation('meeting');
  const codeId = useId();
  const state = useSelector(actorRef, (s) => s);
  const send = actorRef.send;
  const { context } = state;
  const inRoom = state.hasTag('room');
  const info = context.info;

  const codeForm = (
    <form
      className="meeting-code-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        send({ type: 'code.submit' });
      }}
    >
      <div className="field">
        <label htmlFor={codeId}>{t('code.label')}</label>
        <input
          id={codeId}
          name="meetingCode"
          value={context.code}
          autoComplete="off"
          spellCheck={false}
          maxLength={64}
          aria-invalid={context.error ? true : undefined}
          aria-describedby={context.error ? `${codeId}-error` : `${codeId}-hint`}
          onChange={(e) => send({ type: 'code.change', value: e.target.value })}
        />
        <p id={`${codeId}-hint`} className="field-hint">
          {t('code.hint')}
        </p>
        {context.error ? (
          <p id={`${codeId}-error`} className="field-error" role="alert">
            {t(errorKey(context.error))}
          </p>
        ) : null}
      </div>
      <button type="submit" className="button button-primary">
        {t('code.submit')}
      </button>
    </form>
  );

  const appointmentCard = info ? (
    <section className="meeting-card" aria-labelledby={`${codeId}-appointment`}>
      <h2 id={`${codeId}-appointment`}>{t('appointment.heading')}</h2>
      <p>
        {t(TYPE_LABELS[info.appointmentType] ?? 'appointment.heading')}{' '}
        {t('appointment.with', { coach: info.coachName })}
      </p>
      <p>
        <When startDate={info.startDate} endDate={info.endDate} />
      </p>
    </section>
  ) : null;

  const seconds = secondsUntilOpen(context);
  return (
    <article className={inRoom ? 'meeting-page in-room' : 'meeting-page'}>
      <h1>{t('title.client')}</h1>
      {state.matches('enteringCode') || state.matches('invalidCode') ? codeForm : null}
      {state.matches('lookingUp') ? <Busy label={t('state.loading')} /> : null}
      {state.matches('waiting') && info ? (
        <>
          {appointmentCard}
          <section className="notice" aria-live="polite">
            <h2>{t('waiting.title')}</h2>
            <p>
              {t('waiting.opensAt', { date: dateOf(info.joinableFrom), time: timeOf(info.joinableFrom) })}
            </p>
            {seconds <= COUNTDOWN_LIMIT_S ? (
              <p className="meeting-countdown" data-testid="countdown" role="timer" aria-live="off">
                {t('waiting.countdown', { countdown: formatCountdown(seconds) })}
              </p>
            ) : null}
            <p>{t('waiting.stayHint')}</p>
          </section>
        </>
      ) : null}
      {state.matches('joining') || state.matches({ room: 'connecting' }) ? (
        <Busy label={t('state.joining')} />
      ) : null}
      {state.matches('cancelled') ? (
        <>
          {appointmentCard}
          <div className="notice notice-error" role="alert">
            <p>{t('state.cancelled')}</p>
          </div>
        </>
      ) : null}
      {state.matches('over') ? (
        <div className="notice" role="status">
          <p>{t('state.over')}</p>
        </div>
      ) : null}
      {state.matches('external') && info ? (
        <>
          {appointmentCard}
          <div className="notice">
            <p>{t('state.external')}</p>
            {info.externalMeetingUrl ? (
              <a className="button button-primary" href={info.externalMeetingUrl} target="_blank" rel="noopener noreferrer">
                {t('state.externalOpen')}
              </a>
            ) : (
              <p>{t('state.externalMissing')}</p>
            )}
          </div>
        </>
      ) : null}
      {state.matches('failed') ? (
        <ErrorNotice error={context.error} onRetry={() => send({ type: 'meeting.retry' })} />
      ) : null}
      <RoomContainer visible={inRoom} />
    </article>
  );
}
