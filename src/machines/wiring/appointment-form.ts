import { loadAppointmentRecordActor, saveAppointmentActor } from '../actors/staff/appointments';
import { appointmentFormValues } from '../../forms/appointment-staff-form';
import { recordFormMachine } from '../record-form.machine';
import { type RouteEffects, savedToast } from './effects';

/** The appointment edit form wired to the API, the toasts and the router. */

export const wireAppointmentForm = ({ api, toast, navigate }: RouteEffects, id: string) =>
  recordFormMachine.provide({
    actors: {
      loadRecord: loadAppointmentRecordActor(api, appointmentFormValues),
      saveRecord: saveAppointmentActor(api),
    },
    actions: {
      notifySaved: (_, { unchanged }) => {
        toast(savedToast(unchanged, 'staff:toasts.appointmentSaved'));
        navigate(`/appointments/${id}`);
      },
    },
  });
