import { createContext, useContext } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { sessionMachine } from '../machines/session.machine';
import type { AuthEvents } from '../ports/auth-events';

/**
 * The app-wide services a page reads itself: the session and the widget's events. The app's
 * own frame (src/app/layout/) reads the rest (sidebar, toasts, network banner) from the app.
 */
export interface PageServices {
  /** The application session (src/machines/session.machine.ts), already started. */
  session: ActorRefFrom<typeof sessionMachine>;
  /** Widget → session events (session-created, user-deleted, …). */
  authEvents: AuthEvents;
}

/**
 * Provided by src/app/App.tsx with the app's services. It lives here, below the app, so that
 * views import nothing from src/app (the app imports the views through its route table).
 */
export const PageServicesContext = createContext<PageServices | null>(null);

export function usePageServices(): PageServices {
  const services = useContext(PageServicesContext);
  if (!services)
    throw new Error('usePageServices: wrap the tree in <PageServicesContext value={…}>');
  return services;
}
