import { eraseClientActor } from '../actors/staff/client-erase';
import { confirmActionMachine } from '../confirm-action.machine';
import type { RouteEffects } from './effects';

/** Erasing a client from their detail page: asks first; afterwards a toast and the clients list. */
export const wireClientErase = ({ api, toast, navigate }: RouteEffects) =>
  confirmActionMachine.provide({
    actors: { runAction: eraseClientActor(api) },
    actions: {
      notifyDone: () => {
        toast({ kind: 'success', messageKey: 'catalog:toasts.clientErased' });
        navigate('/clients', { replace: true });
      },
    },
  });
