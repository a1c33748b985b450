import {
  cancelAppointmentActor,
  createAppointmentActor,
  deleteAvailabilityActor,
  loadAppointmentActor,
  loadCoachesActor,
  loadEventsActor,
  loadSlotsActor,
  loadWeekActor,
  saveAvailabilityActor,
  searchClientsActor,
  watchViewportActor,
} from '../actors/scheduling';
import { bookingMachine } from '../appointment-booking.machine';
import { availabilityWeekMachine } from '../availability-week.machine';
import { calendarMachine } from '../calendar.machine';
import type { RouteEffects } from './effects';

/** The scheduling pages' machines wired to the API, the toasts and the viewport. */

export const wireBooking = ({ api, toast }: RouteEffects) =>
  bookingMachine.provide({
    actors: {
      loadCoaches: loadCoachesActor(api),
      searchClients: searchClientsActor(api),
      loadSlots: loadSlotsActor(api),
      createAppointment: createAppointmentActor(api),
    },
    actions: {
      notifyBooked: () => toast({ kind: 'success', messageKey: 'scheduling:booking.bookedToast' }),
    },
  });

export const wireCalendar = ({ api, toast }: RouteEffects) =>
  calendarMachine.provide({
    actors: {
      loadCoaches: loadCoachesActor(api),
      loadEvents: loadEventsActor(api),
      loadAppointment: loadAppointmentActor(api),
      cancelAppointment: cancelAppointmentActor(api),
      watchViewport: watchViewportActor(typeof window === 'undefined' ? undefined : window),
    },
    actions: {
      notifyCancelled: () => toast({ kind: 'success', messageKey: 'scheduling:calendar.cancelledToast' }),
    },
  });

export const wireAvailabilityWeek = ({ api, toast }: RouteEffects) =>
  availabilityWeekMachine.provide({
    actors: {
      loadCoaches: loadCoachesActor(api),
      loadWeek: loadWeekActor(api),
      saveAvailability: saveAvailabilityActor(api),
      deleteAvailability: deleteAvailabilityActor(api),
    },
    actions: {
      notifySaved: () => toast({ kind: 'success', messageKey: 'scheduling:availability.savedToast' }),
      notifyDeleted: () => toast({ kind: 'success', messageKey: 'scheduling:availability.deletedToast' }),
    },
  });
