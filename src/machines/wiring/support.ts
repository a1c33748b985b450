import { sendSupportMessageActor } from '../actors/shell';
import { supportMachine } from '../support.machine';
import type { RouteEffects } from './effects';

/** The support page's machine wired to the API and the toasts. */

export const wireSupport = ({ api, toast }: RouteEffects) =>
  supportMachine.provide({
    actors: { sendSupportMessage: sendSupportMessageActor(api) },
    actions: {
      notifySent: () => toast({ kind: 'success', messageKey: 'shell:support.sentToast' }),
    },
  });
