import { Temporal } from '@js-temporal/polyfill';
import { fromPromise } from 'xstate';
import type { ApiClient } from '../../../api/client';
import { ApiError, isApiError } from '../../../api/errors';
import type { components, operations } from '../../../../shared/contract/product';
import type { AppointmentDetail } from '../../appointment-detail.machine';
import type { ListPage, ListQuery } from '../../list.machine';
import type { LoadedRecord } from '../../record-form.machine';
import { todayInBerlin } from '../../../../shared/time';
import { berlinMidnight, bool, pagedParams } from './query';
import { loadClinicalStatus } from './clinical';
import { loadRecordActor, saveRecordActor } from './record';

/** The staff workspace's appointment calls: list, detail and its actions, the move form. */

type Appointment = components['schemas']['Appointment'];
type AppointmentsQuery = NonNullable<operations['listAppointments']['parameters']['query']>;

/**
 * The appointments list's URL query as `GET /appointments` parameters. `from` and `to` are
 * Berlin calendar days, both included: `to` ends at the next Berlin midnight.
 */
export function appointmentsQueryOf(query: ListQuery): AppointmentsQuery {
  return pagedParams(query, (f) => ({
    fromDate: f.from ? berlinMidnight(f.from) : undefined,
    toDate: f.to
      ? berlinMidnight(Temporal.PlainDate.from(f.to).add({ days: 1 }).toString())
      : undefined,
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
  }));
}

/**
 * `/appointments` starts at today: without a day in the address and without `past=true`
 * ("Vergangene anzeigen"), the list reads from today's Berlin midnight on.
 */
export function fromTodayUnlessAsked(
  filters: ListQuery['filters'],
  today: string,
): ListQuery['filters'] {
  if (filters.from || filters.to || filters.past === 'true') return filters;
  return { ...filters, from: today };
}

/**
 * `GET /appointments` for the list machine; `fixed` filters apply whatever the URL says.
 * `startOfList` says where a list without a day starts: today (the appointments list) or
 * this instant (the cancel picker, which lists none that has ended).
 */
export const loadAppointmentsPageActor = (
  api: ApiClient,
  fixed: Record<string, string> = {},
  startOfList?: 'today' | 'now',
) =>
  fromPromise<ListPage, ListQuery>(async ({ input, signal }) => {
    const given = { ...input.filters, ...fixed };
    const filters =
      startOfList === 'today' ? fromTodayUnlessAsked(given, todayInBerlin().toString()) : given;
    const query = appointmentsQueryOf({ ...input, filters });
    const { data } = await api.GET('/appointments', {
      params: {
        query: startOfList === 'now' ? { ...query, fromDate: new Date().toISOString() } : query,
      },
      signal,
    });
    return {
      rows: data!.appointments,
      itemCount: data!.itemCount,
      itemCountCapped: data!.itemCountCapped,
    };
  });

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
        .GET('/communications/appointment/{appointmentId}', {
          params: { path: { appointmentId: input.id } },
          signal,
        })
        .then((r) => r.data!.communications)
        .catch(() => null),
      input.withEvents
        ? api
            .GET('/businessevents', {
              params: { query: { appointmentId: input.id, pageSize: 50 } },
              signal,
            })
            .then((r) => r.data!.businessEvents)
            .catch(() => null)
        : Promise.resolve(null),
    ]);
    const clinical = await loadClinicalStatus(api, appointment.data!.clientId, signal);
    return { appointment: appointment.data!, communications, events, clinical };
  });

/** `DELETE /appointment/{id}`: cancels (the record stays). */
export const cancelAppointmentActor = (api: ApiClient) =>
  fromPromise<Appointment, { id: string }>(async ({ input, signal }) => {
    const { data } = await api.DELETE('/appointment/{id}', {
      params: { path: { id: input.id } },
      signal,
    });
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

export const loadAppointmentRecordActor = (
  api: ApiClient,
  toValues: (appointment: Appointment) => LoadedRecord['values'],
) =>
  loadRecordActor(
    async (id, signal) =>
      (await api.GET('/appointment/{id}', { params: { path: { id } }, signal })).data!,
    toValues,
  );

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

/** `PUT /appointment/{id}` (the move form edits existing appointments only). */
export const saveAppointmentActor = (api: ApiClient) =>
  saveRecordActor({
    update: (id, body: components['schemas']['UpdateAppointmentRequest'], signal) =>
      api
        .PUT('/appointment/{id}', { params: { path: { id } }, body, signal })
        .catch((error: unknown) => {
          throw appointmentFormError(error);
        }),
  });
