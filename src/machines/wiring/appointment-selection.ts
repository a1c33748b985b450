import { createSelectionActors, saveCalendarFile } from '../actors/client';
import { appointmentSelectionMachine } from '../client-appointment-selection.machine';
import { slotPickerMachine } from '../slot-picker.machine';
import type { RouteEffects } from './effects';

/** The client's initial-appointment selection wired to the API and the calendar file. */

export const wireAppointmentSelection = ({ api, translate }: RouteEffects) => {
  const { loadSlots, bookAppointment } = createSelectionActors(api);
  return appointmentSelectionMachine.provide({
    actors: {
      slotPicker: slotPickerMachine.provide({
        actors: { loadSlots: loadSlots as never, submit: bookAppointment },
      }),
    },
    actions: {
      saveCalendar: (_, { appointment }) =>
        saveCalendarFile(
          appointment,
          translate('client:booked.calendarSummary', {
            coach: `${appointment.coach.firstName} ${appointment.coach.lastName}`,
          }),
        ),
    },
  });
};
