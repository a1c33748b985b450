import { fromPromise } from 'xstate';
import type { ApiClient } from '../../../api/client';
import type { MailingListOverview, MailingListSync } from '../../mailing-list.machine';

/** The newsletter list page's calls: the overview (also polled) and starting a sync. */

/** `GET /admin/mailing-list`. */
export const loadMailingListActor = (api: ApiClient) =>
  fromPromise<MailingListOverview>(async ({ signal }) => {
    // Polled during a sync: each poll must see the progress, not a shared earlier answer.
    const { data } = await api.GET('/admin/mailing-list', { signal, cache: 'no-store' });
    return data!;
  });

/** `POST /admin/sync-mailchimp-list` (202 with the queued sync; 409 when refused). */
export const startMailingListSyncActor = (api: ApiClient) =>
  fromPromise<MailingListSync>(async ({ signal }) => {
    const { data } = await api.POST('/admin/sync-mailchimp-list', { signal });
    return data!;
  });
