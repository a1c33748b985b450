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

/** A list's page and page size with the parameters its URL filters give (unset ones left out). */
export const pagedParams = <T extends object>(
  query: { page: number; limit: number; filters: Readonly<Record<string, string | undefined>> },
  params: (filters: Readonly<Record<string, string | undefined>>) => T,
) => defined({ page: query.page, limit: query.limit, ...params(query.filters) });

/** The confirm-action payload of an activate/deactivate button: `{ id, active }`. */
export type ActivePayload = Readonly<Record<string, unknown>>;
