import { loadMailingListActor, startMailingListSyncActor } from '../actors/staff/mailing-list';
import { mailingListMachine } from '../mailing-list.machine';
import type { RouteEffects } from './effects';

/** The newsletter list page wired to the API. */
export const wireMailingList = ({ api }: RouteEffects) =>
  mailingListMachine.provide({
    actors: {
      loadMailingList: loadMailingListActor(api),
      startMailingListSync: startMailingListSyncActor(api),
    },
  });
