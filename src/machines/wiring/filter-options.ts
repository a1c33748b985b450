import { loadFilterOptionsActor } from '../actors/staff/filter-options';
import { filterOptionsMachine } from '../staff-filter-options.machine';
import type { RouteEffects } from './effects';

/** The staff filters' options wired to the API. */

export const wireFilterOptions = ({ api }: RouteEffects) =>
  filterOptionsMachine.provide({ actors: { loadFilterOptions: loadFilterOptionsActor(api) } });
