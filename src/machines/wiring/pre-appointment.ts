import { createAppointmentActor, loadSlotsActor } from '../actors/scheduling';
import { loadClientRecordActor, saveClientActor } from '../actors/staff/clients';
import { clientFormValues } from '../../forms/client-staff-form';
import { preAppointmentMachine } from '../pre-appointment.machine';
import { recordFormMachine } from '../record-form.machine';
import { slotPickerMachine } from '../slot-picker.machine';
import type { RouteEffects } from './effects';

/** A new client, then their initial appointment, wired to the API and the toasts. */
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
      slotPicker: slotPickerMachine.provide({
        actors: { loadSlots: loadSlotsActor(api) as never, submit: createAppointmentActor(api) },
      }),
    },
    actions: {
      notifyBooked: () => toast({ kind: 'success', messageKey: 'staff:toasts.initialBooked' }),
    },
  });
