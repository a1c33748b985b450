import { fromPromise } from 'xstate';
import type { ApiClient } from '../../../api/client';
import type { components } from '../../../../shared/contract/product';
import type { ListPage, ListQuery } from '../../list.machine';
import { bool, defined } from './query';

/** One row of `/events`: an activity-feed entry or an audit-trail entry, told apart by `kind`. */
export type EventRow =
  | ({ kind: 'feed' } & components['schemas']['Event'])
  | ({ kind: 'audit' } & components['schemas']['BusinessEvent']);

/**
 * `/events`: the activity feed (`GET /events`: client, coach, appointment, showAllEvents) or,
 * with `view=audit`, the audit trail (`GET /businessevents`, which names the page size
 * `pageSize` and the filters `clientId`, `coachId`, `appointmentId`).
 */
export const loadEventsPageActor = (api: ApiClient) =>
  fromPromise<ListPage, ListQuery>(async ({ input, signal }) => {
    const f = input.filters;
    if (f.view === 'audit') {
      const { data } = await api.GET('/businessevents', {
        params: {
          query: defined({
            page: input.page,
            pageSize: input.limit,
            clientId: f.client,
            coachId: f.coach,
            appointmentId: f.appointment,
          }),
        },
        signal,
      });
      return {
        rows: data!.businessEvents.map((e) => ({ kind: 'audit' as const, ...e })),
        itemCount: data!.itemCount,
        itemCountCapped: data!.itemCountCapped,
      };
    }
    const { data } = await api.GET('/events', {
      params: {
        query: defined({
          page: input.page,
          limit: input.limit,
          client: f.client,
          coach: f.coach,
          appointment: f.appointment,
          showAllEvents: bool(f.showAllEvents),
        }),
      },
      signal,
    });
    return {
      rows: data!.events.map((e) => ({ kind: 'feed' as const, ...e })),
      itemCount: data!.itemCount,
      itemCountCapped: data!.itemCountCapped,
    };
  });
