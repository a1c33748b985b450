import { fromPromise, type ActorRefFrom } from 'xstate';
import type { ApiClient } from '../../api/client';
import type { BookRequest } from '../client-appointment-selection.machine';
import type { CancelTarget, CancelView } from '../client-cancel.machine';
import type { MoveRequest } from '../client-reschedule.machine';
import type { LinkInput } from '../client-signup.machine';
import type { sessionMachine } from '../session.machine';
import type { SignupRequestBody } from '../../forms/client-signup.form';
import { slotsOfAnswer } from '../../../shared/compact-slots';
import { appointmentIcs, type ClientAppointment, type FreeSlot } from '../../lib/client-slots';
import { saveFile } from './save-file';

/** The API calls of the client pages, as the actors their machines declare. */

/**
 * The free initial slots of a window, asked for in the compact form (the full one is about
 * thirty times larger for the same day tabs and times).
 */
export const loadInitialSlots = async (
  api: ApiClient,
  query: { startDate: string; endDate: string; duration: number; rescheduleOf?: string },
  signal: AbortSignal,
): Promise<FreeSlot[]> =>
  slotsOfAnswer(
    (
      await api.GET('/client/initial_appointment_slots', {
        params: { query: { ...query, form: 'compact' } },
        signal,
      })
    ).data!,
  );

const appointmentView = (a: ClientAppointment): CancelView => ({
  startDate: a.startDate,
  endDate: a.endDate,
  coachName: `${a.coach.firstName} ${a.coach.lastName}`,
  cancelled: a.cancelledAt !== null,
});

/** What the sign-up's actors use of the app-wide services (src/app/services.ts). */
export interface SignupServices {
  api: ApiClient;
  session: ActorRefFrom<typeof sessionMachine>;
}

export const createSignupActors = (services: SignupServices) => ({
  checkSignup: fromPromise<void, SignupRequestBody>(async ({ input, signal }) => {
    await services.api.POST('/client/signup', {
      params: { query: { validateOnly: true } },
      body: input,
      signal,
    });
  }),
  loadInsurers: fromPromise<string[]>(async ({ signal }) => {
    const { data } = await services.api.GET('/client/signup/insurers', { signal });
    return data!.insurers.map((i) => i.name);
  }),
  linkSignup: fromPromise<{ clientId: string }, LinkInput>(async ({ input, signal }) => {
    const { data } = await services.api.POST('/client/signup', {
      body: input.request,
      headers: { Authorization: `Bearer ${input.token}` },
      signal,
    });
    return data!;
  }),
  /**
   * The session logs in again once the link exists and is active then. The widget's
   * session-created may still be on its way: an inactive session is asked to refresh, an
   * active one is done; gives up after 10 s.
   */
  refreshSession: fromPromise<void>(
    () =>
      new Promise<void>((resolve, reject) => {
        let asked = false;
        let finished = false;
        const look = (snapshot: ReturnType<SignupServices['session']['getSnapshot']>) => {
          if (finished) return;
          if (snapshot.matches({ signedIn: 'active' })) {
            finished = true;
            clearTimeout(timer);
            queueMicrotask(() => subscription.unsubscribe());
            resolve();
          } else if (!asked && snapshot.matches({ signedIn: 'inactive' })) {
            asked = true;
            queueMicrotask(() => services.session.send({ type: 'session.refresh' }));
          }
        };
        const timer = setTimeout(() => {
          finished = true;
          subscription.unsubscribe();
          reject(new Error('the session did not become active'));
        }, 10_000);
        const subscription = services.session.subscribe(look);
        look(services.session.getSnapshot());
      }),
  ),
});

export const createSelectionActors = (api: ApiClient) => ({
  loadSlots: fromPromise<FreeSlot[], { startDate: string; endDate: string; duration: number }>(
    ({ input, signal }) => loadInitialSlots(api, input, signal),
  ),
  bookAppointment: fromPromise<ClientAppointment, BookRequest>(async ({ input, signal }) => {
    const { data } = await api.POST('/client/book_initial_appointment', {
      params: { header: { 'Idempotency-Key': input.idempotencyKey } },
      body: { startDate: input.startDate, durationMinutes: input.durationMinutes },
      signal,
    });
    return data!;
  }),
});

export const createRescheduleActors = (api: ApiClient) => ({
  loadReschedule: fromPromise<
    { appointment: ClientAppointment; slots: FreeSlot[] },
    { appointmentId: string; startDate: string; endDate: string; duration: number }
  >(async ({ input, signal }) => {
    const { appointmentId, ...window } = input;
    const [appointment, slots] = await Promise.all([
      api
        .GET('/client/initial_appointment/{appointmentId}', {
          params: { path: { appointmentId } },
          signal,
        })
        .then((r) => r.data!),
      loadInitialSlots(api, { ...window, rescheduleOf: appointmentId }, signal),
    ]);
    return { appointment, slots };
  }),
  moveAppointment: fromPromise<ClientAppointment, MoveRequest>(async ({ input, signal }) => {
    const { data } = await api.PUT('/client/initial_appointment/{appointmentId}', {
      params: {
        path: { appointmentId: input.appointmentId },
        header: { 'Idempotency-Key': input.idempotencyKey },
      },
      body: { startDate: input.startDate, coachId: input.coachId },
      signal,
    });
    return data!;
  }),
});

/** The cancel page's appointment as one of the two calls answers it: by own id, by meeting code. */
interface CancelTargetCalls {
  own: (appointmentId: string, signal: AbortSignal) => Promise<ClientAppointment | undefined>;
  byCode: (clientMeetingCode: string, signal: AbortSignal) => Promise<CancelView | undefined>;
}

/** Reads (or cancels) the appointment the cancel page names, by the way the page was reached. */
const cancelTargetActor = (calls: CancelTargetCalls) =>
  fromPromise<CancelView, CancelTarget>(async ({ input, signal }) => {
    if (input.kind === 'own')
      return appointmentView((await calls.own(input.appointmentId, signal))!);
    const data = (await calls.byCode(input.code, signal))!;
    return {
      startDate: data.startDate,
      endDate: data.endDate,
      coachName: data.coachName,
      cancelled: data.cancelled,
    };
  });

const OWN_APPOINTMENT = '/client/initial_appointment/{appointmentId}';
const BY_MEETING_CODE = '/appointment/meetingCode/{clientMeetingCode}';

export const createCancelActors = (api: ApiClient) => ({
  loadAppointment: cancelTargetActor({
    own: async (appointmentId, signal) =>
      (await api.GET(OWN_APPOINTMENT, { params: { path: { appointmentId } }, signal })).data,
    byCode: async (clientMeetingCode, signal) =>
      (await api.GET(BY_MEETING_CODE, { params: { path: { clientMeetingCode } }, signal })).data,
  }),
  cancelAppointment: cancelTargetActor({
    own: async (appointmentId, signal) =>
      (await api.DELETE(OWN_APPOINTMENT, { params: { path: { appointmentId } }, signal })).data,
    byCode: async (clientMeetingCode, signal) =>
      (await api.DELETE(BY_MEETING_CODE, { params: { path: { clientMeetingCode } }, signal })).data,
  }),
});

export const createAppointmentsActors = (api: ApiClient) => ({
  loadAppointments: fromPromise<ClientAppointment[]>(async ({ signal }) => {
    const { data } = await api.GET('/client/initial_appointment', { signal });
    return data!.appointments;
  }),
});

/**
 * "Zum Kalender hinzufügen": the .ics is made in the browser from the booked appointment and
 * handed over as a download (every calendar app opens it); no extra server call.
 */
export function saveCalendarFile(appointment: ClientAppointment, summary: string) {
  const ics = appointmentIcs(appointment, {
    origin: window.location.origin,
    summary,
    now: Date.now(),
  });
  saveFile(new Blob([ics], { type: 'text/calendar;charset=utf-8' }), 'erstgespraech.ics');
}

/**
 * The client's own signed patient card (`id`: their client record). The server leaves out the
 * reviewers' comments for a client and answers 404 while there is no signed card.
 */
export const loadOwnPatientCardActor = (api: ApiClient) =>
  fromPromise<unknown, { id: string }>(async ({ input, signal }) => {
    const { data } = await api.GET('/client/{clientId}/patient-card', {
      params: { path: { clientId: input.id } },
      signal,
    });
    return data!;
  });
