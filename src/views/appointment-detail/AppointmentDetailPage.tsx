import { useParams } from 'wouter';
import { wireAppointmentDetail } from '../../machines/wiring/appointment-detail';
import { useRouteActor } from '../route-actor';
import { useSessionPermission } from '../session-status';
import { useStaffSession } from '../staff/useUrlList';
import { AppointmentDetailView } from './AppointmentDetailView';

/** Starts the appointment detail machine (the cancel page asks at once). */
export function AppointmentDetailScreen({ id, mode }: { id: string; mode: 'detail' | 'cancel' }) {
  const { manager } = useStaffSession();
  const actorRef = useRouteActor(wireAppointmentDetail, {
    input: { id, withEvents: manager, askToCancel: mode === 'cancel' },
  });
  // Clinical content: whoever the session may read it (onboarding managers see the status only).
  const clinicalWriter = useSessionPermission('readClinical');
  return <AppointmentDetailView actorRef={actorRef} mode={mode} clinicalWriter={clinicalWriter} />;
}

/** `/appointments/{appointmentId}`. */
export default function AppointmentDetailPage() {
  const { appointmentId } = useParams<{ appointmentId: string }>();
  return <AppointmentDetailScreen key={appointmentId} id={appointmentId} mode="detail" />;
}
