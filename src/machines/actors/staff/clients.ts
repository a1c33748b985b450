import { fromPromise } from 'xstate';
import type { ApiClient } from '../../../api/client';
import { loadClinicalAccessLog, loadClinicalStatus } from './clinical';
import type { components, operations } from '../../../../shared/contract/product';
import type { ClientDetail } from '../../client-staff-detail.machine';
import type { ListPage, ListQuery } from '../../list.machine';
import type { LoadedRecord } from '../../record-form.machine';
import type { PickerOption } from '../../record-picker.machine';
import { berlinMidnight, bool, pagedParams } from './query';
import { loadRecordActor, saveRecordActor } from './record';

/** The staff workspace's client calls: list, detail and its actions, the client form. */

type Client = components['schemas']['Client'];
type ClientsQuery = NonNullable<operations['listClients']['parameters']['query']>;

/** The clients list's URL query as `GET /admin/client` parameters. */
export function clientsQueryOf(query: ListQuery): ClientsQuery {
  return pagedParams(query, (f) => ({
    search: f.search,
    sortBy: f.sortBy as ClientsQuery['sortBy'],
    sortOrder: f.sortOrder as ClientsQuery['sortOrder'],
    participatingInResearch: bool(f.participatingInResearch),
    selfOrRelative: f.selfOrRelative as ClientsQuery['selfOrRelative'],
    campaign: f.campaign,
    insurer: f.insurer,
    coach: f.coach,
    showClosedSessions: bool(f.showClosedSessions),
    initialAppointment: bool(f.initialAppointment),
    firstAppointment: bool(f.firstAppointment),
    followupAppointment: bool(f.followupAppointment),
    minFollowupAppointments: f.minFollowupAppointments
      ? Number(f.minFollowupAppointments)
      : undefined,
    hasRejected: bool(f.hasRejected),
    createdAfter: f.createdAfter ? berlinMidnight(f.createdAfter) : undefined,
    phoneNumber: f.phoneNumber,
  }));
}

/** `GET /admin/client` for the list machine. */
export const loadClientsPageActor = (api: ApiClient) =>
  fromPromise<ListPage, ListQuery>(async ({ input, signal }) => {
    const { data } = await api.GET('/admin/client', {
      params: { query: clientsQueryOf(input) },
      signal,
    });
    return {
      rows: data!.clients,
      itemCount: data!.itemCount,
      itemCountCapped: data!.itemCountCapped,
    };
  });

export const loadClientDetailActor = (api: ApiClient, withAccessLog = false) =>
  fromPromise<ClientDetail, { id: string }>(async ({ input, signal }) => {
    const [client, appointments, communications, clinical, accessLog] = await Promise.all([
      api.GET('/admin/client/{clientId}', { params: { path: { clientId: input.id } }, signal }),
      api
        .GET('/appointments', {
          params: { query: { clientId: input.id, limit: 100, sortDirection: 'desc' } },
          signal,
        })
        .then((r) => ({ rows: r.data!.appointments, itemCount: r.data!.itemCount }))
        .catch(() => null),
      api
        .GET('/communications/client/{clientId}', {
          params: { path: { clientId: input.id } },
          signal,
        })
        .then((r) => r.data!.communications)
        .catch(() => null),
      loadClinicalStatus(api, input.id, signal),
      withAccessLog ? loadClinicalAccessLog(api, input.id, signal) : Promise.resolve(null),
    ]);
    return { client: client.data!, appointments, communications, clinical, accessLog };
  });

export const setSessionsClosedActor = (api: ApiClient) =>
  fromPromise<Client, { id: string; closed: boolean }>(async ({ input, signal }) => {
    const params = { path: { clientId: input.id } };
    const { data } = input.closed
      ? await api.POST('/admin/client/{clientId}/close-sessions', { params, signal })
      : await api.POST('/admin/client/{clientId}/open-sessions', { params, signal });
    return data!;
  });

export const sendContractReminderActor = (api: ApiClient) =>
  fromPromise<{ sentAt: string }, { id: string }>(async ({ input, signal }) => {
    const { data } = await api.POST('/admin/client/{clientId}/contract/reminder', {
      params: { path: { clientId: input.id } },
      signal,
    });
    return data!;
  });

/** "Anmeldelink senden": the client gets a link to the client sign-in by e-mail. */
export const sendSignInLinkActor = (api: ApiClient) =>
  fromPromise<{ sentAt: string }, { id: string }>(async ({ input, signal }) => {
    const { data } = await api.POST('/client/request-auth', {
      body: { clientId: input.id, channel: 'email' },
      signal,
    });
    return data!;
  });

const getClient = async (api: ApiClient, clientId: string, signal: AbortSignal) =>
  (await api.GET('/admin/client/{clientId}', { params: { path: { clientId } }, signal })).data!;

/** `GET /admin/client/{id}` as form values (`clientFormValues`). */
export const loadClientRecordActor = (
  api: ApiClient,
  toValues: (client: Client) => LoadedRecord['values'],
) => loadRecordActor((id, signal) => getClient(api, id, signal), toValues);

/** `POST /admin/client` (new) or `PUT /admin/client/{id}` (changed fields). */
export const saveClientActor = (api: ApiClient) =>
  saveRecordActor({
    create: (body: components['schemas']['CreateClientRequest'], signal, header) =>
      api.POST('/admin/client', { params: { header }, body, signal }),
    update: (clientId, body: components['schemas']['UpdateClientRequest'], signal) =>
      api.PUT('/admin/client/{clientId}', { params: { path: { clientId } }, body, signal }),
  });

/** A client as the record picker shows it: name, with the year of birth to tell namesakes apart. */
const clientOption = (c: {
  id: string;
  firstName: string;
  lastName: string;
  yearOfBirth: number | null;
}) => ({
  id: c.id,
  label: `${c.firstName} ${c.lastName}`,
  ...(c.yearOfBirth ? { detail: String(c.yearOfBirth) } : {}),
});

export const searchClientOptionsActor = (api: ApiClient) =>
  fromPromise<PickerOption[], { query: string }>(async ({ input, signal }) => {
    const { data } = await api.GET('/admin/client/search', {
      params: { query: { query: input.query, limit: 10 } },
      signal,
    });
    return data!.clients.map(clientOption);
  });

export const resolveClientOptionActor = (api: ApiClient) =>
  fromPromise<PickerOption, { id: string }>(async ({ input, signal }) =>
    clientOption(await getClient(api, input.id, signal)),
  );
