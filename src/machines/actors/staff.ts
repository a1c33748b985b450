import { Temporal } from '@js-temporal/polyfill';
import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import { ApiError, isApiError } from '../../api/errors';
import type { components, operations } from '../../../shared/contract/product';
import type { AppointmentDetail } from '../appointment-detail.machine';
import type { ClientDetail } from '../client-staff-detail.machine';
import type { ListPage, ListQuery } from '../list.machine';
import type { LoadedRecord, SaveRequest } from '../record-form.machine';
import type { FilterOptions } from '../staff-filter-options.machine';

/** The API calls of the staff workspace (appointments and clients), as the actors its machines declare. */

type Appointment = components['schemas']['Appointment'];
type Client = components['schemas']['Client'];
type AppointmentsQuery = NonNullable<operations['listAppointments']['parameters']['query']>;
type ClientsQuery = NonNullable<operations['listClients']['parameters']['query']>;

const ZONE = 'Europe/Berlin';

/** Berlin midnight starting `date` (`YYYY-MM-DD`) as an ISO instant. */
export const berlinMidnight = (date: string): string =>
  Temporal.PlainDate.from(date).toZonedDateTime({ timeZone: ZONE }).toInstant().toString();

const bool = (value: string | undefined) =>
  value === 'true' ? true : value === 'false' ? false : undefined;

const defined = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/**
 * The appointments list's URL query as `GET /appointments` parameters. `from` and `to` are
 * Berlin calendar days, both included: `to` ends at the next Berlin midnight.
 */
export function appointmentsQueryOf(query: ListQuery): AppointmentsQuery {
  const f = query.filters;
  return defined({
    page: query.page,
    limit: query.limit,
    fromDate: f.from ? berlinMidnight(f.from) : undefined,
    toDate: f.to ? berlinMidnight(Temporal.PlainDate.from(f.to).add({ days: 1 }).toString()) : undefined,
    appointmentType: f.appointmentType as AppointmentsQuery['appointmentType'],
    sortDirection: f.sortDirection as AppointmentsQuery['sortDirection'],
    cancelled: bool(f.cancelled),
    noShow: bool(f.noShow),
    participatingInResearch: bool(f.participatingInResearch),
    selfOrRelative: f.selfOrRelative as AppointmentsQuery['selfOrRelative'],
    campaign: f.campaign,
    insurer: f.insurer,
    coach: f.coach,
    clientId: f.clientId,
  });
}

/** `GET /appointments` for the list machine; `fixed` filters apply whatever the URL says. */
export const loadAppointmentsPageActor = (api: ApiClient, fixed: Record<string, string> = {}) =>
  fromPromise<ListPage, ListQuery>(async ({ input, signal }) => {
    const { data } = await api.GET('/appointments', {
      params: { query: appointmentsQueryOf({ ...input, filters: { ...input.filters, ...fixed } }) },
      signal,
    });
    return { rows: data!.appointments, itemCount: data!.itemCount, itemCountCapped: data!.itemCountCapped };
  });

/** The clients list's URL query as `GET /admin/client` parameters. */
export function clientsQueryOf(query: ListQuery): ClientsQuery {
  const f = query.filters;
  return defined({
    page: query.page,
    limit: query.limit,
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
    minFollowupAppointments: f.minFollowupAppointments ? Number(f.minFollowupAppointments) : undefined,
    hasRejected: bool(f.hasRejected),
    createdAfter: f.createdAfter ? berlinMidnight(f.createdAfter) : undefined,
    phoneNumber: f.phoneNumber,
  });
}

/** `GET /admin/client` for the list machine. */
export const loadClientsPageActor = (api: ApiClient) =>
  fromPromise<ListPage, ListQuery>(async ({ input, signal }) => {
    const { data } = await api.GET('/admin/client', { params: { query: clientsQueryOf(input) }, signal });
    return { rows: data!.clients, itemCount: data!.itemCount, itemCountCapped: data!.itemCountCapped };
  });

/**
 * Coaches, insurers and campaigns for the filters. Coaches only for the roles that may list
 * them (`GET /coach`: admins and onboarding managers); a coach filters their own anyway.
 */
export const loadFilterOptionsActor = (api: ApiClient) =>
  fromPromise<FilterOptions, { withCoaches: boolean }>(async ({ input, signal }) => {
    const coaches: FilterOptions['coaches'] = [];
    const loadCoaches = async () => {
      for (let page = 1; page <= 50; page++) {
        const { data } = await api.GET('/coach', { params: { query: { page, limit: 100 } }, signal });
        for (const c of data!.coaches) {
          coaches.push({ id: c.id, name: [c.title, c.firstName, c.lastName].filter(Boolean).join(' '), active: c.active });
        }
        if (page * 100 >= data!.itemCount) break;
      }
    };
    const [insurers, campaigns] = await Promise.all([
      api.GET('/admin/insurers', { signal }),
      api.GET('/admin/campaigns', { signal }),
      input.withCoaches ? loadCoaches() : Promise.resolve(),
    ]);
    return {
      coaches,
      insurers: insurers.data!.insurers.map((i) => i.name),
      campaigns: campaigns.data!.campaigns.map((c) => ({ code: c.code, name: c.name })),
    };
  });

// ---------------------------------------------------------------------------------------------
// Appointment detail

/**
 * `GET /appointment/{id}` with its messages and, for the roles that may read the audit trail,
 * its business events. Messages and events that fail to load do not hide the appointment.
 */
export const loadAppointmentDetailActor = (api: ApiClient) =>
  fromPromise<AppointmentDetail, { id: string; withEvents: boolean }>(async ({ input, signal }) => {
    const path = { id: input.id };
    const [appointment, communications, events] = await Promise.all([
      api.GET('/appointment/{id}', { params: { path }, signal }),
      api
        .GET('/communications/appointment/{appointmentId}', { params: { path: { appointmentId: input.id } }, signal })
        .then((r) => r.data!.communications)
        .catch(() => null),
      input.withEvents
        ? api
            .GET('/businessevents', { params: { query: { appointmentId: input.id, pageSize: 50 } }, signal })
            .then((r) => r.data!.businessEvents)
            .catch(() => null)
        : Promise.resolve(null),
    ]);
    return { appointment: appointment.data!, communications, events };
  });

export const cancelAppointmentActor = (api: ApiClient) =>
  fromPromise<Appointment, { id: string }>(async ({ input, signal }) => {
    const { data } = await api.DELETE('/appointment/{id}', { params: { path: { id: input.id } }, signal });
    return data!;
  });

export const setNoShowActor = (api: ApiClient) =>
  fromPromise<Appointment, { id: string; noShow: boolean }>(async ({ input, signal }) => {
    const { data } = await api.PUT('/appointment/{id}', {
      params: { path: { id: input.id } },
      body: { noShow: input.noShow },
      signal,
    });
    return data!;
  });

/** `POST /appointment/{id}/resendInvites`; the client's link is `{origin}/meeting/{code}`. */
export const resendInvitesActor = (api: ApiClient, origin: string) =>
  fromPromise<void, { id: string }>(async ({ input, signal }) => {
    await api.POST('/appointment/{id}/resendInvites', {
      params: { path: { id: input.id } },
      body: { meetingBaseUrl: `${origin}/meeting` },
      signal,
    });
  });

// ---------------------------------------------------------------------------------------------
// Client detail

export const loadClientDetailActor = (api: ApiClient) =>
  fromPromise<ClientDetail, { id: string }>(async ({ input, signal }) => {
    const [client, appointments, communications] = await Promise.all([
      api.GET('/admin/client/{clientId}', { params: { path: { clientId: input.id } }, signal }),
      api
        .GET('/appointments', {
          params: { query: { clientId: input.id, limit: 100, sortDirection: 'desc' } },
          signal,
        })
        .then((r) => ({ rows: r.data!.appointments, itemCount: r.data!.itemCount }))
        .catch(() => null),
      api
        .GET('/communications/client/{clientId}', { params: { path: { clientId: input.id } }, signal })
        .then((r) => r.data!.communications)
        .catch(() => null),
    ]);
    return { client: client.data!, appointments, communications };
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

// ---------------------------------------------------------------------------------------------
// Forms

/** `GET /admin/client/{id}` as form values (`clientFormValues`). */
export const loadClientRecordActor = (api: ApiClient, toValues: (client: Client) => LoadedRecord['values']) =>
  fromPromise<LoadedRecord, { id: string }>(async ({ input, signal }) => {
    const { data } = await api.GET('/admin/client/{clientId}', {
      params: { path: { clientId: input.id } },
      signal,
    });
    return { values: toValues(data!), record: data! };
  });

/** `POST /admin/client` (new) or `PUT /admin/client/{id}` (changed fields). */
export const saveClientActor = (api: ApiClient) =>
  fromPromise<unknown, SaveRequest>(async ({ input, signal }) => {
    if (input.id === null) {
      const { data } = await api.POST('/admin/client', {
        body: input.body as components['schemas']['CreateClientRequest'],
        signal,
      });
      return data!;
    }
    const { data } = await api.PUT('/admin/client/{clientId}', {
      params: { path: { clientId: input.id } },
      body: input.body as components['schemas']['UpdateClientRequest'],
      signal,
    });
    return data!;
  });

export const loadAppointmentRecordActor = (
  api: ApiClient,
  toValues: (appointment: Appointment) => LoadedRecord['values'],
) =>
  fromPromise<LoadedRecord, { id: string }>(async ({ input, signal }) => {
    const { data } = await api.GET('/appointment/{id}', { params: { path: { id: input.id } }, signal });
    return { values: toValues(data!), record: data! };
  });

/** The API's fields of a move and the form's fields that set them. */
const FORM_FIELD_OF: Record<string, string> = { startDate: 'date', endDate: 'endTime' };

/**
 * A refused save as the form shows it: the API names `startDate` (e.g. `start_in_past`) and
 * `endDate`, the form edits day and times, so those field errors go to the date and the end.
 */
function appointmentFormError(error: unknown): unknown {
  if (!isApiError(error)) return error;
  const fieldErrors = error.fieldErrors.map((e) => {
    const name = e.field.split(/[./]/).filter(Boolean).at(-1) ?? '';
    return name in FORM_FIELD_OF ? { ...e, field: FORM_FIELD_OF[name]! } : e;
  });
  const { status, code, title, detail, type, instance, requestId } = error;
  return new ApiError(
    Object.assign(
      { status, code, fieldErrors },
      title === undefined ? {} : { title },
      detail === undefined ? {} : { detail },
      type === undefined ? {} : { type },
      instance === undefined ? {} : { instance },
      requestId === undefined ? {} : { requestId },
    ),
    error.request,
  );
}

export const saveAppointmentActor = (api: ApiClient) =>
  fromPromise<unknown, SaveRequest>(async ({ input, signal }) => {
    try {
      const { data } = await api.PUT('/appointment/{id}', {
        params: { path: { id: input.id! } },
        body: input.body as components['schemas']['UpdateAppointmentRequest'],
        signal,
      });
      return data!;
    } catch (error) {
      throw appointmentFormError(error);
    }
  });

// ---------------------------------------------------------------------------------------------
// Coaches, users and events (issue 7, part 2)

type Coach = components['schemas']['Coach'];
type User = components['schemas']['User'];
/** The confirm-action payload of an activate/deactivate button: `{ id, active }`. */
type ActivePayload = Readonly<Record<string, unknown>>;

/** Coaches loaded in pages of 100 (the filters that `GET /coach` lacks are applied here). */
async function allCoaches(api: ApiClient, signal: AbortSignal): Promise<Coach[]> {
  const all: Coach[] = [];
  for (let page = 1; page <= 100; page++) {
    const { data } = await api.GET('/coach', { params: { query: { page, limit: 100 } }, signal });
    all.push(...data!.coaches);
    if (page * 100 >= data!.itemCount) break;
  }
  return all;
}

const slicePage = <Row>(rows: readonly Row[], query: ListQuery): ListPage<Row> => ({
  rows: rows.slice((query.page - 1) * query.limit, query.page * query.limit),
  itemCount: rows.length,
});

/**
 * The coaches list (`/coaches`). Without filters: `GET /coach` pages as they are. With a
 * search: `GET /coach/search` (active coaches by name or e-mail, at most 50; a search for
 * deactivated coaches finds none). With only the active filter: every coach, filtered and
 * paged here (`GET /coach` has no such parameter; staff lists are short).
 */
export const loadCoachesPageActor = (api: ApiClient) =>
  fromPromise<ListPage, ListQuery>(async ({ input, signal }) => {
    const { search, active } = input.filters;
    if (search) {
      if (active === 'false') return { rows: [], itemCount: 0 };
      const { data } = await api.GET('/coach/search', { params: { query: { query: search, limit: 50 } }, signal });
      return slicePage(data!.coaches, input);
    }
    if (active === 'true' || active === 'false') {
      const wanted = active === 'true';
      return slicePage((await allCoaches(api, signal)).filter((c) => c.active === wanted), input);
    }
    const { data } = await api.GET('/coach', { params: { query: { page: input.page, limit: input.limit } }, signal });
    return { rows: data!.coaches, itemCount: data!.itemCount };
  });

/** `GET /coach/{id}` as form values. */
export const loadCoachRecordActor = (api: ApiClient, toValues: (coach: Coach) => LoadedRecord['values']) =>
  fromPromise<LoadedRecord, { id: string }>(async ({ input, signal }) => {
    const { data } = await api.GET('/coach/{coachId}', { params: { path: { coachId: input.id } }, signal });
    return { values: toValues(data!), record: data! };
  });

/** `POST /coach` (new) or `PUT /coach/{id}` (changed fields). */
export const saveCoachActor = (api: ApiClient) =>
  fromPromise<unknown, SaveRequest>(async ({ input, signal }) => {
    if (input.id === null) {
      const { data } = await api.POST('/coach', {
        body: input.body as components['schemas']['CreateCoachRequest'],
        signal,
      });
      return data!;
    }
    const { data } = await api.PUT('/coach/{coachId}', {
      params: { path: { coachId: input.id } },
      body: input.body as components['schemas']['UpdateCoachRequest'],
      signal,
    });
    return data!;
  });

/** Deactivates (`DELETE /coach/{id}`: refused while live appointments lie ahead) or reactivates a coach. */
export const setCoachActiveActor = (api: ApiClient) =>
  fromPromise<unknown, ActivePayload>(async ({ input, signal }) => {
    const params = { path: { coachId: String(input.id) } };
    if (input.active === true) await api.PUT('/coach/{coachId}', { params, body: { active: true }, signal });
    else await api.DELETE('/coach/{coachId}', { params, signal });
  });

/** `GET /user` for the list machine. */
export const loadUsersPageActor = (api: ApiClient) =>
  fromPromise<ListPage, ListQuery>(async ({ input, signal }) => {
    const { data } = await api.GET('/user', { params: { query: { page: input.page, limit: input.limit } }, signal });
    return { rows: data!.users, itemCount: data!.itemCount };
  });

/** `GET /user/{id}` as form values. */
export const loadUserRecordActor = (api: ApiClient, toValues: (user: User) => LoadedRecord['values']) =>
  fromPromise<LoadedRecord, { id: string }>(async ({ input, signal }) => {
    const { data } = await api.GET('/user/{id}', { params: { path: { id: input.id } }, signal });
    return { values: toValues(data!), record: data! };
  });

/**
 * `POST /user` (new: answers the user and the one-time activation code) or `POST /user/{id}`
 * (role, coach link). The server refuses roles above the caller's own (403 role_not_assignable).
 */
export const saveUserActor = (api: ApiClient) =>
  fromPromise<unknown, SaveRequest>(async ({ input, signal }) => {
    if (input.id === null) {
      const { data } = await api.POST('/user', {
        body: input.body as components['schemas']['CreateUserRequest'],
        signal,
      });
      return data!;
    }
    const { data } = await api.POST('/user/{id}', {
      params: { path: { id: input.id } },
      body: input.body as components['schemas']['UpdateUserRequest'],
      signal,
    });
    return data!;
  });

export const setUserActiveActor = (api: ApiClient) =>
  fromPromise<unknown, ActivePayload>(async ({ input, signal }) => {
    const { data } = await api.POST('/user/{id}', {
      params: { path: { id: String(input.id) } },
      body: { active: input.active === true },
      signal,
    });
    return data!;
  });

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

export const loadCoachActor = (api: ApiClient) =>
  fromPromise<unknown, { id: string }>(async ({ input, signal }) => {
    const { data } = await api.GET('/coach/{coachId}', { params: { path: { coachId: input.id } }, signal });
    return data!;
  });

export const loadUserActor = (api: ApiClient) =>
  fromPromise<unknown, { id: string }>(async ({ input, signal }) => {
    const { data } = await api.GET('/user/{id}', { params: { path: { id: input.id } }, signal });
    return data!;
  });
