import { useSearch } from 'wouter';
import { safeReturnTo } from '../../lib/return-to';
import { useSessionStatus } from '../session-status';

/**
 * Where the activation pages send a person whose account is active: the page they came from
 * (`returnTo`, if safe), else home; null while the account is not active.
 */
export function useReturnWhenActive(): string | null {
  const status = useSessionStatus();
  const returnTo = safeReturnTo(new URLSearchParams(useSearch()).get('returnTo'));
  return status.kind === 'signedIn' && status.session.active ? (returnTo ?? '/') : null;
}
