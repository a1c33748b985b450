import { fromCallback, fromPromise, type EventObject } from 'xstate';
import type { ApiClient } from '../../api/client';
import { slotsOfAnswer } from '../../../shared/compact-slots';
import type {
  DeleteAvailabilityInput,
  LoadWeekInput,
  SaveAvailabilityInput,
} from '../availability-week.machine';
import type { BookingRequest } from '../appointment-booking.machine';
import type { CalendarQuery } from '../calendar.machine';
import type { CalendarFeed, CalendarFeedStatus } from '../calendar-feed.machine';
import type {
  Appointment,
  Availability,
  CalendarEvent,
  CalendarWeek,
  ClientSummary,
  CoachOption,
  FreeSlot,
} from '../scheduling/shared';

/** The API calls of the staff scheduling screens, as the actors their machines declare. */

const COACH_PAGE = 100;

/** Active coaches, by name (`GET /coach`, ADMIN and ONBOARDING_MANAGER), all pages. */
export const loadCoachesActor = (api: ApiClient) =>
  fromPromise<CoachOption[]>(async ({ signal }) => {
    const coaches: CoachOption[] = [];
    for (let page = 1; page <= 50; page++) {
      const { data } = await api.GET('/coach', {
        params: { query: { page, limit: COACH_PAGE } },
        signal,
      });
      for (const c of data!.coaches) {
        if (c.active)
          coaches.push({
            id: c.id,
            name: [c.title, c.firstName, c.lastName].filter(Boolean).join(' '),
          });
      }
      if (page * COACH_PAGE >= data!.itemCount) break;
    }
    return coaches;
  });

/** `GET /availability` for one coach and week. */
export const loadWeekActor = (api: ApiClient) =>
  fromPromise<Availability[], LoadWeekInput>(async ({ input, signal }) => {
    const { data } = await api.GET('/availability', { params: { query: input }, signal });
    return data!.availabilities;
  });

export const saveAvailabilityActor = (api: ApiClient) =>
  fromPromise<Availability, SaveAvailabilityInput>(async ({ input, signal }) => {
    switch (input.op) {
      case 'create':
        return (
          await api.POST('/availability', {
            params: { header: { 'Idempotency-Key': input.idempotencyKey } },
            body: input.body,
            signal,
          })
        ).data!;
      case 'series':
        return (
          await api.PUT('/availability/{id}', {
            params: { path: { id: input.id } },
            body: input.body,
            signal,
          })
        ).data!;
      case 'occurrence':
        return (
          await api.PUT('/availability/{id}/occurrence', {
            params: { path: { id: input.id } },
            body: input.body,
            signal,
          })
        ).data!;
    }
  });

export const deleteAvailabilityActor = (api: ApiClient) =>
  fromPromise<void, DeleteAvailabilityInput>(async ({ input, signal }) => {
    if (input.op === 'series') {
      await api.DELETE('/availability/{id}', { params: { path: { id: input.id } }, signal });
    } else {
      await api.DELETE('/availability/{id}/occurrence', {
        params: { path: { id: input.id }, query: { occurrenceDate: input.occurrenceDate } },
        signal,
      });
    }
  });

/** `GET /calendar/events`, the whole answer (the staff calendar shows the private side too). */
export const loadCalendarWeekActor = (api: ApiClient) =>
  fromPromise<CalendarWeek, CalendarQuery>(async ({ input, signal }) => {
    const query = {
      startDate: input.startDate,
      endDate: input.endDate,
      ...(input.coachId ? { coachId: input.coachId } : {}),
    };
    const { data } = await api.GET('/calendar/events', { params: { query }, signal });
    return data!;
  });

/** `GET /calendar/events`, the entries only. */
export const loadEventsActor = (api: ApiClient) =>
  fromPromise<CalendarEvent[], CalendarQuery>(async ({ input, signal }) => {
    const query = {
      startDate: input.startDate,
      endDate: input.endDate,
      ...(input.coachId ? { coachId: input.coachId } : {}),
    };
    const { data } = await api.GET('/calendar/events', { params: { query }, signal });
    return data!.events;
  });

export const loadAppointmentActor = (api: ApiClient) =>
  fromPromise<Appointment, { id: string }>(async ({ input, signal }) => {
    const { data } = await api.GET('/appointment/{id}', {
      params: { path: { id: input.id } },
      signal,
    });
    return data!;
  });

export const searchClientsActor = (api: ApiClient) =>
  fromPromise<ClientSummary[], { query: string }>(async ({ input, signal }) => {
    const { data } = await api.GET('/admin/client/search', {
      params: { query: { query: input.query, limit: 10 } },
      signal,
    });
    return data!.clients;
  });

/** Free slots of one coach's calendar (the same slot service clients book from). */
/** The free-slot call: a coach (or pooled calendar), a window and the length asked for. */
export interface SlotQuery {
  coachId: string;
  startDate: string;
  endDate: string;
  duration: number;
}

export const loadSlotsActor = (api: ApiClient) =>
  fromPromise<FreeSlot[], SlotQuery>(async ({ input, signal }) => {
    const { data } = await api.GET('/admin/calendar/available_slots/{calendarid}', {
      params: {
        path: { calendarid: input.coachId },
        query: {
          startDate: input.startDate,
          endDate: input.endDate,
          duration: input.duration,
          // The picker shows a week's days and times: the compact form carries just that.
          form: 'compact',
        },
      },
      signal,
    });
    return slotsOfAnswer(data!);
  });

/** `POST /appointment` with an Idempotency-Key, so a repeated click books once. */
export const createAppointmentActor = (api: ApiClient) =>
  fromPromise<Appointment, BookingRequest>(async ({ input, signal }) => {
    const { data } = await api.POST('/appointment', {
      params: { header: { 'Idempotency-Key': input.idempotencyKey } },
      body: input.body,
      signal,
    });
    return data!;
  });

/** The mobile breakpoint of the specification's screens and routes. */
export const NARROW_QUERY = '(max-width: 767px)';

/** Reports `viewport.change` when the screen crosses the mobile breakpoint. */
export const watchViewportActor = (win: Pick<Window, 'matchMedia'> | undefined) =>
  fromCallback<EventObject>(({ sendBack }) => {
    const query = win?.matchMedia?.(NARROW_QUERY);
    if (!query) return undefined;
    const report = () => sendBack({ type: 'viewport.change', narrow: query.matches });
    report();
    query.addEventListener('change', report);
    return () => query.removeEventListener('change', report);
  });

/** True when the screen is narrow now (the calendar's first view). */
export const isNarrow = (win: Pick<Window, 'matchMedia'> | undefined): boolean =>
  win?.matchMedia?.(NARROW_QUERY).matches ?? false;

/** Whether the coach's calendar feed address exists (`GET /coach/{id}/calendar-feed`). */
export const loadCalendarFeedActor = (api: ApiClient) =>
  fromPromise<CalendarFeedStatus, { coachId: string }>(async ({ input, signal }) => {
    const { data } = await api.GET('/coach/{coachId}/calendar-feed', {
      params: { path: { coachId: input.coachId } },
      signal,
    });
    return data!;
  });

/** A new secret feed address; an earlier one stops working (`POST /coach/{id}/calendar-feed`). */
export const createCalendarFeedActor = (api: ApiClient) =>
  fromPromise<CalendarFeed, { coachId: string }>(async ({ input, signal }) => {
    const { data } = await api.POST('/coach/{coachId}/calendar-feed', {
      params: { path: { coachId: input.coachId } },
      signal,
    });
    return data!;
  });
