import { useParams } from 'wouter';
import { AppointmentDetailScreen } from './AppointmentDetailPage';

/** `/cancel-appointment/{appointmentId}`: the appointment, with the cancellation question. */
export default function CancelAppointmentPage() {
  const { appointmentId } = useParams<{ appointmentId: string }>();
  return <AppointmentDetailScreen key={appointmentId} id={appointmentId} mode="cancel" />;
}
