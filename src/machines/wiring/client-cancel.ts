import { createCancelActors } from '../actors/client';
import { cancelMachine } from '../client-cancel.machine';
import type { RouteEffects } from './effects';

/** The client's cancellation page wired to the API. */

export const wireClientCancel = ({ api }: RouteEffects) =>
  cancelMachine.provide({ actors: createCancelActors(api) });
