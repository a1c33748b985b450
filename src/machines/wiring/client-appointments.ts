import { createAppointmentsActors } from '../actors/client';
import { clientAppointmentsMachine } from '../client-appointments.machine';
import type { RouteEffects } from './effects';

/** The client's appointments (/client-signup/login) wired to the API. */

export const wireClientAppointments = ({ api }: RouteEffects) =>
  clientAppointmentsMachine.provide({ actors: createAppointmentsActors(api) });
