import { loadDashboardFiguresActor } from '../actors/shell';
import { dashboardMachine } from '../dashboard.machine';
import type { RouteEffects } from './effects';

/** The dashboard's machine wired to the API. */

export const wireDashboard = ({ api }: RouteEffects) =>
  dashboardMachine.provide({ actors: { loadFigures: loadDashboardFiguresActor(api) } });
