import {
  createAppointmentActor,
  loadCoachesActor,
  loadSlotsActor,
  searchClientsActor,
} from '../actors/scheduling';
import { bookingMachine } from '../appointment-booking.machine';
import { slotPickerMachine } from '../slot-picker.machine';
import type { RouteEffects } from './effects';

/** The booking pages' machine (/appointment/new, /appointment/new-adhoc) wired to the API and the toasts. */

export const wireBooking = ({ api, toast }: RouteEffects) =>
  bookingMachine.provide({
    actors: {
      loadCoaches: loadCoachesActor(api),
      searchClients: searchClientsActor(api),
      slotPicker: slotPickerMachine.provide({
        actors: { loadSlots: loadSlotsActor(api) as never, submit: createAppointmentActor(api) },
      }),
    },
    actions: {
      notifyBooked: () => toast({ kind: 'success', messageKey: 'scheduling:booking.bookedToast' }),
    },
  });
