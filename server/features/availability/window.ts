import { ZONE } from '../../../shared/time';
import { badRequest } from '../../http/problem';
import { compareInstants, instant } from '../../time';

/**
 * A query window [startDate, endDate) as epoch milliseconds (the slot and occurrence loops
 * compute in them); 400 naming endDate when it does not end after its start or spans more
 * than `maxDays` Berlin days. Days, not 24-hour blocks: the window from one Berlin midnight
 * to the one `maxDays` later is 1 hour longer across the October change, and still allowed.
 */
export function queryWindow(startDate: string, endDate: string, maxDays: number) {
  const from = instant(startDate);
  const to = instant(endDate);
  if (compareInstants(to, from) <= 0)
    throw badRequest('endDate', 'end_before_start', 'endDate must be after startDate');
  const last = from.toZonedDateTimeISO(ZONE).add({ days: maxDays }).toInstant();
  if (compareInstants(to, last) > 0) {
    throw badRequest('endDate', 'window_too_large', `The window spans at most ${maxDays} days`);
  }
  return { from: from.epochMilliseconds, to: to.epochMilliseconds };
}
