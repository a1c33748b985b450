import { useSearch } from 'wouter';
import { safeReturnTo } from '../../lib/return-to';
import { useSessionStatus } from '../session-status';

/**
 * Where /activate and /notactive send the person once the account is active: the page they
 * came from (a safe `returnTo`), else home. Null while the account is not active.
 */
export function useOnwardWhenActive(): string | null {
  const status = useSessionStatus();
  const returnTo = safeReturnTo(new URLSearchParams(useSearch()).get('returnTo'));
  return status.kind === 'signedIn' && status.session.active ? (returnTo ?? '/') : null;
}
