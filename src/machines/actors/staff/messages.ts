import { fromPromise } from 'xstate';
import type { ApiClient } from '../../../api/client';
import type { ListPage, ListQuery } from '../../list.machine';

/** `/messages/failed`: the messages that could not be delivered, newest first. */
export const loadFailedMessagesPageActor = (api: ApiClient) =>
  fromPromise<ListPage, ListQuery>(async ({ input, signal }) => {
    const { data } = await api.GET('/communications/failed', {
      params: { query: { page: input.page, limit: input.limit } },
      signal,
    });
    return { rows: data!.communications, itemCount: data!.itemCount };
  });
