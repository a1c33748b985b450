import { loadDashboardActor, loadTodayActor } from '../actors/overview';
import { overviewMachine } from '../overview.machine';
import type { RouteEffects } from './effects';

/** "Heute" wired to the API; the cards depend on the session's permissions. */
export const wireToday = ({ api, session }: RouteEffects) =>
  overviewMachine.provide({
    actors: {
      loadOverview: loadTodayActor(
        api,
        () => session.getSnapshot().context.session?.permissions?.includes('pickCoach') ?? false,
      ),
    },
  });

/** The admin dashboard wired to the API. */
export const wireDashboard = ({ api }: RouteEffects) =>
  overviewMachine.provide({ actors: { loadOverview: loadDashboardActor(api) } });
