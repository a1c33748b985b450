import { useSelector } from '@xstate/react';
import type { SnapshotFrom } from 'xstate';
import type { SessionInfo, SessionPermission, sessionMachine } from '../machines/session.machine';
import { usePageServices } from './page-services';

/** The session as pages and the app's route guard see it. */
export type SessionStatus =
  | { kind: 'pending' }
  | { kind: 'signedOut' }
  | { kind: 'partial' }
  | { kind: 'signedIn'; session: SessionInfo };

export function sessionStatus(snapshot: SnapshotFrom<typeof sessionMachine>): SessionStatus {
  if (snapshot.hasTag('signedIn') && snapshot.context.session) {
    return { kind: 'signedIn', session: snapshot.context.session };
  }
  if (snapshot.hasTag('signedOut')) return { kind: 'signedOut' };
  if (snapshot.hasTag('partial')) return { kind: 'partial' };
  return { kind: 'pending' };
}

const sameStatus = (a: SessionStatus, b: SessionStatus) =>
  a.kind === b.kind &&
  (a.kind !== 'signedIn' || (b.kind === 'signedIn' && a.session === b.session));

/** The session as pages and guards see it: pending, signedOut, partial or signedIn. */
export function useSessionStatus(): SessionStatus {
  const { session } = usePageServices();
  return useSelector(session, sessionStatus, sameStatus);
}

/** Whether a session status holds a permission (signed in, and the login answer granted it). */
export const statusMay = (status: SessionStatus, permission: SessionPermission): boolean =>
  status.kind === 'signedIn' && (status.session.permissions ?? []).includes(permission);

/**
 * Whether the session's role may do something (the login answer's `permissions`,
 * server/access/permissions.ts): pages react to this instead of naming roles.
 */
export function useSessionPermission(permission: SessionPermission): boolean {
  return statusMay(useSessionStatus(), permission);
}
