import type { components } from '../../../shared/contract/product';
import { loadClientRecordActor, saveClientActor } from '../actors/staff/clients';
import { clientFormValues } from '../../forms/client-staff-form';
import { recordFormMachine } from '../record-form.machine';
import { type RouteEffects, savedToast } from './effects';

/** The staff's client form wired to the API, the toasts and the router. */

/** The client form, new (`id` null) or editing; after saving it opens the client. */
export const wireClientForm = ({ api, toast, navigate }: RouteEffects, id: string | null) =>
  recordFormMachine.provide({
    actors: {
      loadRecord: loadClientRecordActor(api, clientFormValues),
      saveRecord: saveClientActor(api),
    },
    actions: {
      notifySaved: (_, { record, unchanged }) => {
        const client = record as components['schemas']['Client'] | null;
        toast(
          savedToast(
            unchanged,
            id === null ? 'staff:toasts.clientCreated' : 'staff:toasts.clientSaved',
          ),
        );
        navigate(`/clients/${client?.id ?? id}`);
      },
    },
  });
