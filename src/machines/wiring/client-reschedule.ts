import { createRescheduleActors } from '../actors/client';
import { rescheduleMachine } from '../client-reschedule.machine';
import type { RouteEffects } from './effects';

/** The client's reschedule page wired to the API. */

export const wireClientReschedule = ({ api }: RouteEffects) =>
  rescheduleMachine.provide({ actors: createRescheduleActors(api) });
