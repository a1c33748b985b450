/**
 * The events the sign-in widget raises for the rest of the app (the specification's states and
 * transitions): the widget's flow machines emit them, the session machine listens. Kept tiny and
 * typed so that the widget does not import the session and the session does not import the widget.
 */
export type AuthEvent =
  /** A login or registration flow reached `success`; `token` is the session JWT (X-Auth-Token). */
  | {
      type: 'session-created';
      token: string;
      userId: string;
      expiresInSeconds: number | null;
      /** false: kept only until the browser closes (no "Angemeldet bleiben"); default true. */
      persistent?: boolean;
    }
  /** The provider said the session is no longer valid (401 from a profile flow, /sessions/validate). */
  | { type: 'session-expired' }
  /** The user chose "Abmelden". */
  | { type: 'user-logged-out' }
  /** The profile flow reached `account_deleted`. */
  | { type: 'user-deleted' };

export type AuthEventListener = (event: AuthEvent) => void;

export interface AuthEvents {
  emit(event: AuthEvent): void;
  /** Returns the unsubscribe function. */
  subscribe(listener: AuthEventListener): () => void;
}

export function createAuthEvents(): AuthEvents {
  const listeners = new Set<AuthEventListener>();
  return {
    emit(event) {
      for (const listener of [...listeners]) listener(event);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
