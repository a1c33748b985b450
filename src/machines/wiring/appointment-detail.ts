import {
  cancelAppointmentActor,
  loadAppointmentDetailActor,
  resendInvitesActor,
  setNoShowActor,
} from '../actors/staff/appointments';
import { type AppointmentAction, appointmentDetailMachine } from '../appointment-detail.machine';
import type { RouteEffects } from './effects';

/** The appointment detail (and cancel) page wired to the API and the toasts. */

const APPOINTMENT_TOASTS: Record<AppointmentAction, string> = {
  cancelled: 'staff:toasts.cancelled',
  noShowChanged: 'staff:toasts.noShowChanged',
  invitesSent: 'staff:toasts.invitesSent',
};

export const wireAppointmentDetail = ({ api, toast }: RouteEffects) =>
  appointmentDetailMachine.provide({
    actors: {
      loadDetail: loadAppointmentDetailActor(api),
      cancelAppointment: cancelAppointmentActor(api),
      setNoShow: setNoShowActor(api),
      resendInvites: resendInvitesActor(api, window.location.origin),
    },
    actions: {
      notify: (_, { action }) => toast({ kind: 'success', messageKey: APPOINTMENT_TOASTS[action] }),
    },
  });
