import { Redirect } from 'wouter';
import { useSessionStatus } from '../session-status';
import { HomePage } from './HomePage';

const STAFF_ROLES = new Set(['COACH', 'ADMIN', 'ONBOARDING_MANAGER', 'SUPERADMIN']);

/**
 * `/`: the public welcome page, except for active staff, who land on their working page
 * "Heute" (after signing in the sign-in page returns here when nothing else was asked for).
 */
export function StartPage() {
  const status = useSessionStatus();
  if (status.kind === 'signedIn' && status.session.active && STAFF_ROLES.has(status.session.role)) {
    return <Redirect to="/today" replace />;
  }
  return <HomePage />;
}
