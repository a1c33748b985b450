import { useSelector } from '@xstate/react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import { secondsUntilOpen, type clientMeetingMachine } from '../../machines/client-meeting.machine';
import {
  Busy,
  CancelledNotice,
  CodeForm,
  ExternalNotice,
  MeetingFrame,
  OverNotice,
  TYPE_LABELS,
  SOON_S,
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
    <MeetingFrame
      title={t('title.client')}
      inRoom={inRoom}
      failed={state.hasTag('failed')}
      error={context.error}
      onRetry={() => send({ type: 'meeting.retry' })}
    >
      {state.hasTag('codeForm') ? codeForm : null}
      {state.hasTag('lookingUp') ? <Busy label={t('state.loading')} /> : null}
      {state.hasTag('waiting') && info ? (
        <>
          {appointmentCard}
          <WaitingNotice
            joinableFrom={info.joinableFrom}
            countdownSeconds={seconds <= COUNTDOWN_LIMIT_S ? seconds : null}
            soon={seconds <= SOON_S}
          >
            <p>{t(seconds <= SOON_S ? 'waiting.stayHint' : 'waiting.laterHint')}</p>
          </WaitingNotice>
        </>
      ) : null}
      {state.hasTag('connecting') ? <Busy label={t('state.joining')} /> : null}
      {state.hasTag('cancelled') ? (
        <>
          {appointmentCard}
          <CancelledNotice />
        </>
      ) : null}
      {state.hasTag('over') ? <OverNotice /> : null}
      {state.hasTag('external') && info ? (
        <>
          {appointmentCard}
          <ExternalNotice url={info.externalMeetingUrl} />
        </>
      ) : null}
    </MeetingFrame>
  );
}
