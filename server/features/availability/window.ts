import { badRequest } from '../../http/problem';

const DAY_MS = 24 * 60 * 60_000;

/**
 * A query window [startDate, endDate) as epoch milliseconds; 400 naming endDate when it
 * does not end after its start or spans more than `maxDays`.
 */
export function queryWindow(startDate: string, endDate: string, maxDays: number) {
  const from = Date.parse(startDate);
  const to = Date.parse(endDate);
  if (!(to > from))
    throw badRequest('endDate', 'end_before_start', 'endDate must be after startDate');
  if (to - from > maxDays * DAY_MS) {
    throw badRequest('endDate', 'window_too_large', `The window spans at most ${maxDays} days`);
  }
  return { from, to };
}
