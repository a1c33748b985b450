import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import type { InitialCalendarQuery } from '../initial-calendar.machine';
import type { InitialCalendar } from '../scheduling/initial-pool';

/** `GET /admin/calendar/initial-meetings`: the week's pool, coaches named as the pickers name them. */
export const loadInitialCalendarActor = (api: ApiClient) =>
  fromPromise<InitialCalendar, InitialCalendarQuery>(async ({ input, signal }) => {
    const { data } = await api.GET('/admin/calendar/initial-meetings', {
      params: { query: { startDate: input.startDate, endDate: input.endDate } },
      signal,
    });
    return {
      coaches: data!.coaches.map((c) => ({ id: c.id, name: `${c.firstName} ${c.lastName}` })),
      slots: data!.slots,
      events: data!.events,
    };
  });
