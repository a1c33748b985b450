import type { components } from '../../../shared/contract/product';
import { loadCoachRecordActor, saveCoachActor } from '../actors/staff/coaches';
import { coachFormValues } from '../../forms/coach-staff-form';
import { recordFormMachine } from '../record-form.machine';
import { type RouteEffects, savedToast } from './effects';

/** The coach form wired to the API, the toasts and the router. */

/** The coach form, new (`id` null) or editing; after saving it opens the coach. */
export const wireCoachForm = ({ api, toast, navigate }: RouteEffects, id: string | null) =>
  recordFormMachine.provide({
    actors: {
      loadRecord: loadCoachRecordActor(api, coachFormValues),
      saveRecord: saveCoachActor(api),
    },
    actions: {
      notifySaved: (_, { record, unchanged }) => {
        const coach = record as components['schemas']['Coach'] | null;
        toast(
          savedToast(
            unchanged,
            id === null ? 'staff:toasts.coachCreated' : 'staff:toasts.coachSaved',
          ),
        );
        navigate(`/coaches/${coach?.id ?? id}`);
      },
    },
  });
