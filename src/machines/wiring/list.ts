import type { ApiClient } from '../../api/client';
import { type ListPage, type ListQuery, listMachine } from '../list.machine';
import type { fromPromise } from 'xstate';
import type { RouteEffects } from './effects';

/** The staff lists' machine wired to the API and the address bar. */

/** A list page whose query lives in its URL at `path`; `loadPage` asks the API for one page. */
export const wireList = (
  { api, navigate }: RouteEffects,
  options: { path: string; loadPage: (api: ApiClient) => ReturnType<typeof fromPromise<ListPage, ListQuery>> },
) =>
  listMachine.provide({
    actors: { loadPage: options.loadPage(api) },
    actions: { syncUrl: (_, params) => navigate(`${options.path}${params.search}`) },
  });
