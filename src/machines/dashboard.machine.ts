import { assign, fromPromise, setup } from 'xstate';
import { errorCodeOf, notProvided } from './shared/failures';

/**
 * The admin dashboard (`/dashboard`, SUPERADMIN): key figures from the list operations'
 * `itemCount`. loading → loaded, or failed with retry; `dashboard.refresh` loads again.
 */
export interface DashboardFigure {
  /** Which figure: users, coaches, openClients, upcomingAppointments. */
  id: string;
  count: number;
  /** The list counts at most 1,000 matches ("mehr als 1.000"). */
  capped: boolean;
}

export interface DashboardContext {
  figures: DashboardFigure[];
  error: { code: string } | null;
}

export type DashboardEvent = { type: 'dashboard.retry' } | { type: 'dashboard.refresh' };

export const dashboardMachine = setup({
  types: {
    context: {} as DashboardContext,
    events: {} as DashboardEvent,
    tags: {} as 'busy' | 'error' | 'loaded',
  },
  actors: {
    loadFigures: fromPromise<DashboardFigure[]>(notProvided('dashboard', 'loadFigures')),
  },
}).createMachine({
  id: 'dashboard',
  context: { figures: [], error: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadFigures',
        src: 'loadFigures',
        onDone: {
          target: 'loaded',
          actions: assign({ figures: ({ event }) => event.output, error: null }),
        },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => ({ code: errorCodeOf(event.error) }) }),
        },
      },
    },
    loaded: { tags: ['loaded'], on: { 'dashboard.refresh': 'loading' } },
    failed: { tags: ['error'], on: { 'dashboard.retry': 'loading' } },
  },
});
