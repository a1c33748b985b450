import { useActorRef } from '@xstate/react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { useAppServices } from '../../app/services';
import {
  fetchClientTokenActor,
  lookupMeetingActor,
  videoRoomActor,
} from '../../machines/actors/meeting';
import { clientMeetingMachine } from '../../machines/client-meeting.machine';
import { ClientMeetingView } from './ClientMeetingView';

/** `/meeting` and `/meeting/{meetingCode}` (public): wires the client meeting machine. */
export default function ClientMeetingPage({ params }: { params?: { meetingCode?: string | undefined } }) {
  const { i18n } = useTranslation('meeting');
  const { api } = useAppServices();
  const [, navigate] = useLocation();
  const machine = useMemo(
    () =>
      clientMeetingMachine.provide({
        actors: {
          lookupMeeting: lookupMeetingActor(api),
          fetchToken: fetchClientTokenActor(api),
          videoRoom: videoRoomActor(),
        },
        actions: {
          showCode: (_, p) => navigate(`/meeting/${encodeURIComponent(p.code)}`, { replace: true }),
          showFinished: () => navigate('/meetingfinished'),
        },
      }),
    [api, navigate],
  );
  const actorRef = useActorRef(machine, {
    input: { code: params?.meetingCode ?? '', lang: i18n.language },
  });
  return <ClientMeetingView actorRef={actorRef} />;
}
