import { createAppointmentActor, loadSlotsActor } from '../actors/scheduling';
import { loadClientRecordActor, saveClientActor } from '../actors/staff/clients';
import { clientFormValues } from '../../forms/client-staff-form';
import { preAppointmentMachine } from '../pre-appointment.machine';
import { recordFormMachine } from '../record-form.machine';
import type { RouteEffects } from './effects';

/** A new client with their initial appointment, wired to the API and the toasts. */

/** A new client, then their initial appointment. */
export const wirePreAppointment = ({ api, toast }: RouteEffects) =>
  preAppointmentMachine.provide({
    actors: {
      clientForm: recordFormMachine.provide({
        actors: {
          loadRecord: loadClientRecordActor(api, clientFormValues),
          saveRecord: saveClientActor(api),
        },
        actions: {
          notifySaved: () => toast({ kind: 'success', messageKey: 'staff:toasts.clientCreated' }),
        },
      }),
      loadSlots: loadSlotsActor(api),
      createAppointment: createAppointmentActor(api),
    },
    actions: {
      notifyBooked: () => toast({ kind: 'success', messageKey: 'staff:toasts.initialBooked' }),
    },
  });
