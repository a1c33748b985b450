import { useActorRef } from '@xstate/react';
import { useParams } from 'wouter';
import { useAppServices } from '../../app/services';
import { cancelAppointmentActor, loadAppointmentDetailActor, resendInvitesActor, setNoShowActor } from '../../machines/actors/staff/appointments';
import { appointmentDetailMachine, type AppointmentAction } from '../../machines/appointment-detail.machine';
import { useStaffSession } from '../staff/useUrlList';
import { AppointmentDetailView } from './AppointmentDetailView';

const TOASTS: Record<AppointmentAction, string> = {
  cancelled: 'staff:toasts.cancelled',
  noShowChanged: 'staff:toasts.noShowChanged',
  invitesSent: 'staff:toasts.invitesSent',
};

/** Wires the appointment detail machine to the API and the toasts. */
export function AppointmentDetailScreen({ id, mode }: { id: string; mode: 'detail' | 'cancel' }) {
  const { api, toasts } = useAppServices();
  const { manager } = useStaffSession();
  const actorRef = useActorRef(
    appointmentDetailMachine.provide({
      actors: {
        loadDetail: loadAppointmentDetailActor(api),
        cancelAppointment: cancelAppointmentActor(api),
        setNoShow: setNoShowActor(api),
        resendInvites: resendInvitesActor(api, window.location.origin),
      },
      actions: {
        notify: (_, { action }) => toasts.send({ type: 'show', kind: 'success', messageKey: TOASTS[action] }),
      },
    }),
    { input: { id, withEvents: manager, askToCancel: mode === 'cancel' } },
  );
  return <AppointmentDetailView actorRef={actorRef} mode={mode} />;
}

/** `/appointments/{appointmentId}`. */
export default function AppointmentDetailPage() {
  const { appointmentId } = useParams<{ appointmentId: string }>();
  return <AppointmentDetailScreen key={appointmentId} id={appointmentId} mode="detail" />;
}
