import type { ApiClient } from '../../api/client';
import type { AuthFlowDeps } from '../auth/actors';
import type { sessionMachine } from '../session.machine';
import type { ActorRefFrom } from 'xstate';

/** A toast a route's machine asks for: an i18n key (`ns:key`) and how it looks. */
export interface RouteToast {
  kind: 'success' | 'info' | 'warning' | 'error';
  messageKey: string;
  values?: Record<string, string | number>;
}

/**
 * Everything a route's machine may reach outside itself. The views' `useRouteActor`
 * (src/views/route-actor.ts) builds it from what the app injects plus the router and i18n,
 * and hands it to a `wire…` function of this folder; tests may call those with fakes.
 */
export interface RouteEffects {
  api: ApiClient;
  toast: (toast: RouteToast) => void;
  navigate: (path: string, options?: { replace?: boolean }) => void;
  /** Translates a key for texts that leave the page (a calendar file's summary). */
  translate: (key: string, values?: Record<string, string>) => string;
  /** The resolved language (the provider's e-mails, the video room). */
  language: () => string;
  /** The app's session actor (the sign-up waits for it to become active). */
  session: ActorRefFrom<typeof sessionMachine>;
  /** What the sign-in widget's flow needs from the app. */
  auth: Pick<AuthFlowDeps, 'authApi' | 'getToken' | 'authEvents'>;
}

/** The toast after a form's save: "nothing changed" or the page's own success message. */
export const savedToast = (unchanged: boolean, messageKey: string): RouteToast =>
  unchanged
    ? { kind: 'info', messageKey: 'staff:toasts.unchanged' }
    : { kind: 'success', messageKey };
