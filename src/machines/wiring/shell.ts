import { loadDashboardFiguresActor, sendSupportMessageActor } from '../actors/shell';
import { dashboardMachine } from '../dashboard.machine';
import { supportMachine } from '../support.machine';
import type { RouteEffects } from './effects';

/** The support and dashboard pages' machines wired to the API and the toasts. */

export const wireSupport = ({ api, toast }: RouteEffects) =>
  supportMachine.provide({
    actors: { sendSupportMessage: sendSupportMessageActor(api) },
    actions: {
      notifySent: () => toast({ kind: 'success', messageKey: 'shell:support.sentToast' }),
    },
  });

export const wireDashboard = ({ api }: RouteEffects) =>
  dashboardMachine.provide({ actors: { loadFigures: loadDashboardFiguresActor(api) } });
