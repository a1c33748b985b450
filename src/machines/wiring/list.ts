import type { ApiClient } from '../../api/client';
import { type ListEvent, type ListPage, type ListQuery, listMachine } from '../list.machine';
import { fromCallback, type ActorRefFrom, type fromPromise } from 'xstate';
import type { BatchEvent } from '../batch-action.machine';
import type { RouteEffects } from './effects';

/** The staff lists' machine wired to the API, the address bar and the window's focus. */

/** `list.focus` when the window regains focus or the tab becomes visible again. */
export const watchWindowFocus = fromCallback<ListEvent>(({ sendBack }) => {
  const onFocus = () => sendBack({ type: 'list.focus' });
  const onVisible = () => {
    if (document.visibilityState === 'visible') onFocus();
  };
  window.addEventListener('focus', onFocus);
  document.addEventListener('visibilitychange', onVisible);
  return () => {
    window.removeEventListener('focus', onFocus);
    document.removeEventListener('visibilitychange', onVisible);
  };
});

/** A list page whose query lives in its URL at `path`; `loadPage` asks the API for one page. */
export const wireList = (
  { api, navigate }: RouteEffects,
  options: {
    path: string;
    loadPage: (api: ApiClient) => ReturnType<typeof fromPromise<ListPage, ListQuery>>;
  },
) =>
  listMachine.provide({
    actors: { loadPage: options.loadPage(api), watchFocus: watchWindowFocus },
    actions: { syncUrl: (_, params) => navigate(`${options.path}${params.search}`) },
  });

/**
 * Forwards each new filter of the list (a tab, a field, the URL) to the batch machine, which
 * drops the selection made under the old one.
 */
export const watchListFilter = (list: ActorRefFrom<typeof listMachine>) =>
  fromCallback<BatchEvent>(({ sendBack }) => {
    let last = list.getSnapshot().context.query.filters;
    const subscription = list.subscribe((snapshot) => {
      const filter = snapshot.context.query.filters;
      if (filter === last) return;
      last = filter;
      sendBack({ type: 'batch.filter', filter });
    });
    return () => subscription.unsubscribe();
  });
