import { useState } from 'react';
import { useSessionStatus } from '../session-status';
import { browserTimeZone } from '../../../shared/time';

/**
 * What the scheduling pages start their machines with: whether the session picks the coach
 * (the `pickCoach` permission; not until the session is known), the own coach record and the
 * browser's time zone (read once per page).
 */
export function useSchedulingSession() {
  const status = useSessionStatus();
  const session = status.kind === 'signedIn' ? status.session : null;
  const [browserZone] = useState(browserTimeZone);
  return {
    browserZone,
    canPickCoach: session?.permissions?.includes('pickCoach') ?? false,
    ownCoachId: session?.coach?.id ?? null,
  };
}
