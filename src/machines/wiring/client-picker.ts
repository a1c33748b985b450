import { resolveClientOptionActor, searchClientOptionsActor } from '../actors/staff/clients';
import { recordPickerMachine } from '../record-picker.machine';
import type { RouteEffects } from './effects';

/** A client picked by name (the events list's client filter). */
export const wireClientPicker = ({ api }: RouteEffects) =>
  recordPickerMachine.provide({
    actors: { search: searchClientOptionsActor(api), resolve: resolveClientOptionActor(api) },
  });
