import { useSelector } from '@xstate/react';
import { sessionStatus, type SessionStatus } from './access';
import { useAppServices } from './services';

const sameStatus = (a: SessionStatus, b: SessionStatus) =>
  a.kind === b.kind &&
  (a.kind !== 'signedIn' || (b.kind === 'signedIn' && a.session === b.session));

/** The session as pages and guards see it: pending, signedOut, partial or signedIn. */
export function useSessionStatus(): SessionStatus {
  const { session } = useAppServices();
  return useSelector(session, sessionStatus, sameStatus);
}
