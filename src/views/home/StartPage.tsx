import { Redirect } from 'wouter';
import { statusMay, useSessionStatus } from '../session-status';
import { HomePage } from './HomePage';

/**
 * `/`: the public welcome page, except for active staff, who land on their working page
 * "Heute" (after signing in the sign-in page returns here when nothing else was asked for).
 */
export function StartPage() {
  const status = useSessionStatus();
  if (status.kind === 'signedIn' && status.session.active && statusMay(status, 'openStaffPages')) {
    return <Redirect to="/today" replace />;
  }
  return <HomePage />;
}
