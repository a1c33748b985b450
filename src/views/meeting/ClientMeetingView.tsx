import { useSelector } from '@xstate/react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import { secondsUntilOpen, type clientMeetingMachine } from '../../machines/client-meeting.machine';
import {
  Busy,
  CancelledNotice,
  CodeForm,
  ErrorNotice,
  ExternalNotice,
  OverNotice,
  RoomContainer,
  TYPE_LABELS,
  WaitingNotice,
  When,
} from './parts';

/** A day in seconds: longer waits show only the opening time, no running countdown. */
const COUNTDOWN_LIMIT_S = 24 * 60 * 60;

/** The client's meeting page: renders the client meeting machine's state. */
export function ClientMeetingView({
  actorRef,
}: {
  actorRef: ActorRefFrom<typeof clientMeetingMachine>;
}) {
  const { t } = useTranslation('meeting');
  const cardId = useId();
  const state = useSelector(actorRef, (s) => s);
  const send = actorRef.send;
  const { context } = state;
  const inRoom = state.hasTag('room');
  const info = context.info;

  const codeForm = (
    <CodeForm
      code={context.code}
      error={context.error}
      hint={t('code.hint')}
      hintClassName="field-hint"
      submitLabel={t('code.submit')}
      onChange={(value) => send({ type: 'code.change', value })}
      onSubmit={() => send({ type: 'code.submit' })}
    />
  );

  const appointmentCard = info ? (
    <section className="meeting-card" aria-labelledby={`${cardId}-appointment`}>
      <h2 id={`${cardId}-appointment`}>{t('appointment.heading')}</h2>
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
          <WaitingNotice
            joinableFrom={info.joinableFrom}
            countdownSeconds={seconds <= COUNTDOWN_LIMIT_S ? seconds : null}
          >
            <p>{t('waiting.stayHint')}</p>
          </WaitingNotice>
        </>
      ) : null}
      {state.matches('joining') || state.matches({ room: 'connecting' }) ? (
        <Busy label={t('state.joining')} />
      ) : null}
      {state.matches('cancelled') ? (
        <>
          {appointmentCard}
          <CancelledNotice />
        </>
      ) : null}
      {state.matches('over') ? <OverNotice /> : null}
      {state.matches('external') && info ? (
        <>
          {appointmentCard}
          <ExternalNotice url={info.externalMeetingUrl} />
        </>
      ) : null}
      {state.matches('failed') ? (
        <ErrorNotice error={context.error} onRetry={() => send({ type: 'meeting.retry' })} />
      ) : null}
      <RoomContainer visible={inRoom} />
    </article>
  );
}
