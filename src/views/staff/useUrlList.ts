import { useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { useSearch } from 'wouter';
import type { z } from 'zod';
import type { ApiClient } from '../../api/client';
import {
  parseListSearch,
  type ListPage,
  type ListQuery,
  type SortKeys,
} from '../../machines/list.machine';
import type { fromPromise } from 'xstate';
import { statusMay, useSessionStatus } from '../session-status';
import type { Role } from '../../machines/session.machine';
import type { FilterOptions } from '../../machines/staff-filter-options.machine';
import { wireFilterOptions } from '../../machines/wiring/filter-options';
import { wireList } from '../../machines/wiring/list';
import { useRouteActor } from '../route-actor';

type FilterSchema = z.ZodObject<Record<string, z.ZodType<string | undefined>>>;

/**
 * Starts the list machine for a page whose query lives in its URL: the first query comes from
 * the address, the machine writes changes back (a history entry each), and back/forward are
 * passed to it as `url.change`. Wiring only; the machine decides what loads.
 */
export function useUrlList(options: {
  path: string;
  filters: FilterSchema;
  /** One page from the API (a factory of src/machines/actors/staff/). */
  loadPage: (api: ApiClient) => ReturnType<typeof fromPromise<ListPage, ListQuery>>;
  defaultLimit?: number;
  sortKeys?: SortKeys;
}) {
  const search = useSearch();
  const [initial] = useState(() => parseListSearch(search, options.filters, options.defaultLimit));
  const actorRef = useRouteActor((effects) => wireList(effects, options), {
    input: {
      query: initial,
      ...(options.defaultLimit ? { defaultLimit: options.defaultLimit } : {}),
      ...(options.sortKeys ? { sortKeys: options.sortKeys } : {}),
    },
  });
  useEffect(() => {
    actorRef.send({
      type: 'url.change',
      query: parseListSearch(search, options.filters, options.defaultLimit),
    });
  }, [actorRef, search, options.filters, options.defaultLimit]);
  return actorRef;
}

/**
 * The signed-in role and coach (pages pass them to machines; the server checks anyway);
 * `manager`: works for every coach (the `pickCoach` permission).
 */
export function useStaffSession(): { role: Role; coachId: string | null; manager: boolean } {
  const status = useSessionStatus();
  const role = status.kind === 'signedIn' ? status.session.role : 'NONE';
  const coachId = status.kind === 'signedIn' ? (status.session.coach?.id ?? null) : null;
  return { role, coachId, manager: statusMay(status, 'pickCoach') };
}

/** FormData of a filter form as `list.filter` values (every field, empty ones remove). */
export function filtersFromForm(form: HTMLFormElement): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of new FormData(form).entries()) {
    if (typeof value === 'string') values[key] = value.trim();
  }
  return values;
}

/** Coaches (for managers), insurers and campaigns for the filter selects. */
export function useFilterOptions(withCoaches: boolean): FilterOptions {
  const ref = useRouteActor(wireFilterOptions, { input: { withCoaches } });
  return useSelector(ref, (s) => s.context.options);
}

/**
 * A filtered staff list (appointments, clients, billing, review): the URL list, the filter
 * options for the signed-in role, and the current filters by key for the filter form.
 */
export function useFilteredList(options: Parameters<typeof useUrlList>[0]) {
  const { manager } = useStaffSession();
  const actorRef = useUrlList(options);
  const filterOptions = useFilterOptions(manager);
  const filters = useSelector(actorRef, (s) => s.context.query.filters);
  return { manager, actorRef, options: filterOptions, filters, f: (key: string) => filters[key] };
}
