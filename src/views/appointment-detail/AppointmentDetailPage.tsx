import { useParams } from 'wouter';
import { wireAppointmentDetail } from '../../machines/wiring/appointment-detail';
import { useRouteActor } from '../route-actor';
import { useStaffSession } from '../staff/useUrlList';
import { AppointmentDetailView } from './AppointmentDetailView';

/** Starts the appointment detail machine (the cancel page asks at once). */
export function AppointmentDetailScreen({ id, mode }: { id: string; mode: 'detail' | 'cancel' }) {
  const { manager } = useStaffSession();
  const actorRef = useRouteActor(wireAppointmentDetail, {
    input: { id, withEvents: manager, askToCancel: mode === 'cancel' },
  });
  return <AppointmentDetailView actorRef={actorRef} mode={mode} />;
}

/** `/appointments/{appointmentId}`. */
export default function AppointmentDetailPage() {
  const { appointmentId } = useParams<{ appointmentId: string }>();
  return <AppointmentDetailScreen key={appointmentId} id={appointmentId} mode="detail" />;
}
