import { Temporal } from '@js-temporal/polyfill';
import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import { mondayOf, todayInBerlin, windowOf } from '../../../shared/time';
import type { Overview, OverviewCard } from '../overview.machine';
import { OPEN_CLIENTS_HREF } from '../../views/clients/open-clients';

/**
 * The cards of the staff start page ("Heute") and the admin dashboard, each the `itemCount`
 * of a list operation (asked with `limit: 1`), and the day's appointments for "Heute".
 */

const ONE = { page: 1, limit: 1 } as const;

interface Counted {
  itemCount: number;
  itemCountCapped?: boolean;
}

const card = (id: string, body: Counted, href: string | null, waiting = false): OverviewCard => ({
  id,
  count: body.itemCount,
  capped: body.itemCountCapped === true,
  href,
  ...(waiting ? { waiting } : {}),
});

/** Today's and this week's Berlin days, as API instants and as the list page's `from`/`to`. */
function daysOf(nowMs: number) {
  const today = todayInBerlin(Temporal.Instant.fromEpochMilliseconds(nowMs));
  const monday = mondayOf(today);
  const sunday = monday.add({ days: 6 });
  return {
    today: windowOf(today, 1),
    week: windowOf(monday, 7),
    todayHref: `/appointments?from=${today}&to=${today}`,
    weekHref: `/appointments?from=${monday}&to=${sunday}`,
  };
}

type Api = ApiClient;

function appointmentCounts(api: Api, nowMs: number, signal: AbortSignal, withDay: boolean) {
  const days = daysOf(nowMs);
  const live = { cancelled: false, sortDirection: 'asc' } as const;
  return Promise.all([
    api.GET('/appointments', {
      params: {
        query: withDay
          ? {
              page: 1,
              limit: 100,
              fromDate: days.today.startDate,
              toDate: days.today.endDate,
              ...live,
            }
          : { ...ONE, fromDate: days.today.startDate, toDate: days.today.endDate, ...live },
      },
      signal,
    }),
    api.GET('/appointments', {
      params: {
        query: { ...ONE, fromDate: days.week.startDate, toDate: days.week.endDate, ...live },
      },
      signal,
    }),
  ]).then(([today, week]) => ({ days, today: today.data!, week: week.data! }));
}

/** "Heute": the day's appointments, the week's count, and what waits for this person. */
export const loadTodayActor = (api: Api, picksCoach: () => boolean) =>
  fromPromise<Overview, { nowMs: number }>(async ({ input, signal }) => {
    // Whoever works for every coach also sees the clients still waiting for one.
    const manager = picksCoach();
    // Clinical work (patient cards, summaries) joins as cards once the server lists it.
    const [appointments, openClients] = await Promise.all([
      appointmentCounts(api, input.nowMs, signal, true),
      manager ? api.GET('/admin/client', { params: { query: ONE }, signal }) : null,
    ]);
    const { days, today, week } = appointments;
    const cards: OverviewCard[] = [
      card('todayAppointments', today, days.todayHref),
      card('weekAppointments', week, days.weekHref),
      ...(openClients ? [card('openClients', openClients.data!, OPEN_CLIENTS_HREF, true)] : []),
    ];
    return { cards, appointments: today.appointments };
  });

/** The admin dashboard: today, this week, waiting work, then the product's size. */
export const loadDashboardActor = (api: Api) =>
  fromPromise<Overview, { nowMs: number }>(async ({ input, signal }) => {
    const [appointments, openClients, billing, failed, users, coaches] = await Promise.all([
      appointmentCounts(api, input.nowMs, signal, false),
      api.GET('/admin/client', { params: { query: ONE }, signal }),
      api.GET('/billable-items', { params: { query: ONE }, signal }),
      api.GET('/communications/failed', { params: { query: ONE }, signal }),
      api.GET('/user', { params: { query: ONE }, signal }),
      api.GET('/coach', { params: { query: ONE }, signal }),
    ]);
    const { days, today, week } = appointments;
    const totals = billing.data!.statusTotals;
    return {
      appointments: [],
      cards: [
        card('todayAppointments', today, days.todayHref),
        card('weekAppointments', week, days.weekHref),
        card('openClients', openClients.data!, OPEN_CLIENTS_HREF, true),
        card(
          'pendingBillableItems',
          { itemCount: totals.pending.count },
          '/billing?status=pending',
          true,
        ),
        card(
          'validationFailedItems',
          { itemCount: totals.validation_failed.count },
          '/billing?status=validation_failed',
          true,
        ),
        card('failedMessages', failed.data!, '/messages/failed', true),
        card('users', users.data!, '/users'),
        card('coaches', coaches.data!, '/coaches'),
      ],
    };
  });
