import { useTranslation } from 'react-i18next';
import { wireClientMeeting } from '../../machines/wiring/client-meeting';
import { useRouteActor } from '../route-actor';
import { ClientMeetingView } from './ClientMeetingView';

/** `/meeting` and `/meeting/{meetingCode}` (public): starts the client meeting machine. */
export default function ClientMeetingPage({
  params,
}: {
  params?: { meetingCode?: string | undefined };
}) {
  const { i18n } = useTranslation('meeting');
  const actorRef = useRouteActor(wireClientMeeting, {
    input: { code: params?.meetingCode ?? '', lang: i18n.language },
  });
  return <ClientMeetingView actorRef={actorRef} />;
}
