import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import type { DashboardFigure } from '../dashboard.machine';
import type { SupportRequest } from '../support.machine';

/** `POST /support/message` (operation sendSupportMessage). */
export const sendSupportMessageActor = (api: ApiClient) =>
  fromPromise<{ id: string }, SupportRequest>(async ({ input, signal }) => {
    const { data } = await api.POST('/support/message', { body: input, signal });
    return data!;
  });

/** The dashboard's key figures: the `itemCount` of four list operations, one row each. */
export const loadDashboardFiguresActor = (api: ApiClient, now: () => Date = () => new Date()) =>
  fromPromise<DashboardFigure[]>(async ({ signal }) => {
    const one = { page: 1, limit: 1 } as const;
    const [users, coaches, clients, appointments] = await Promise.all([
      api.GET('/user', { params: { query: one }, signal }),
      api.GET('/coach', { params: { query: one }, signal }),
      api.GET('/admin/client', { params: { query: one }, signal }),
      api.GET('/appointments', {
        params: { query: { ...one, fromDate: now().toISOString(), cancelled: false } },
        signal,
      }),
    ]);
    const capped = (body: object | undefined) =>
      !!body && 'itemCountCapped' in body && body.itemCountCapped === true;
    return [
      { id: 'users', count: users.data!.itemCount, capped: capped(users.data) },
      { id: 'coaches', count: coaches.data!.itemCount, capped: capped(coaches.data) },
      { id: 'openClients', count: clients.data!.itemCount, capped: capped(clients.data) },
      {
        id: 'upcomingAppointments',
        count: appointments.data!.itemCount,
        capped: capped(appointments.data),
      },
    ];
  });
