import { fromPromise } from 'xstate';
import { createRescheduleActors, loadInitialSlots } from '../actors/client';
import { rescheduleMachine } from '../client-reschedule.machine';
import {
  slotPickerMachine,
  type FreeSlot,
  type SlotQuery,
  type SlotWindow,
} from '../slot-picker.machine';
import type { RouteEffects } from './effects';

/** The client's reschedule page wired to the API. */

export const wireClientReschedule = ({ api }: RouteEffects) => {
  const { loadReschedule, moveAppointment } = createRescheduleActors(api);
  // Fresh slots of this move (after a slot was taken, or a retry): `rescheduleOf` in the query.
  const loadSlots = fromPromise<FreeSlot[], SlotQuery & SlotWindow>(({ input, signal }) =>
    loadInitialSlots(
      api,
      input as { startDate: string; endDate: string; duration: number; rescheduleOf: string },
      signal,
    ),
  );
  return rescheduleMachine.provide({
    actors: {
      loadReschedule,
      slotPicker: slotPickerMachine.provide({ actors: { loadSlots, submit: moveAppointment } }),
    },
  });
};
