import {
  createAppointmentsActors,
  createCancelActors,
  createRescheduleActors,
  createSelectionActors,
  createSignupActors,
  saveCalendarFile,
} from '../actors/client';
import { appointmentSelectionMachine } from '../client-appointment-selection.machine';
import { clientAppointmentsMachine } from '../client-appointments.machine';
import { cancelMachine } from '../client-cancel.machine';
import { rescheduleMachine } from '../client-reschedule.machine';
import { clientSignupMachine } from '../client-signup.machine';
import type { RouteEffects } from './effects';

/** The client self-service pages' machines wired to the API and the session. */

export const wireClientSignup = ({ api, session }: RouteEffects) =>
  clientSignupMachine.provide({ actors: createSignupActors({ api, session }) });

export const wireAppointmentSelection = ({ api, translate }: RouteEffects) =>
  appointmentSelectionMachine.provide({
    actors: createSelectionActors(api),
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

export const wireClientAppointments = ({ api }: RouteEffects) =>
  clientAppointmentsMachine.provide({ actors: createAppointmentsActors(api) });

export const wireClientCancel = ({ api }: RouteEffects) =>
  cancelMachine.provide({ actors: createCancelActors(api) });

export const wireClientReschedule = ({ api }: RouteEffects) =>
  rescheduleMachine.provide({ actors: createRescheduleActors(api) });
