import { Temporal } from '@js-temporal/polyfill';

/** Helpers shared by the staff workspace's API calls: URL filters as API parameters. */

const ZONE = 'Europe/Berlin';

/** Berlin midnight starting `date` (`YYYY-MM-DD`) as an ISO instant. */
export const berlinMidnight = (date: string): string =>
  Temporal.PlainDate.from(date).toZonedDateTime({ timeZone: ZONE }).toInstant().toString();

export const bool = (value: string | undefined) =>
  value === 'true' ? true : value === 'false' ? false : undefined;

export const defined = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/** The confirm-action payload of an activate/deactivate button: `{ id, active }`. */
export type ActivePayload = Readonly<Record<string, unknown>>;

