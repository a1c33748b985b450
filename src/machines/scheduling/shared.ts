import type { components } from '../../../shared/contract/product';
import { errorCodeOf, type MachineError } from '../shared/failures';

export type Availability = components['schemas']['Availability'];
export type CalendarEvent = components['schemas']['CalendarEvent'];
/** The calendar's answer: entries, the coaches' private busy times and their calendars' state. */
export type CalendarWeek = components['schemas']['CalendarEventList'];
export type PrivateBusyTime = components['schemas']['PrivateBusyTime'];
export type PrivateCalendarState = components['schemas']['PrivateCalendarState'];
export type Appointment = components['schemas']['Appointment'];
export type AppointmentType = components['schemas']['AppointmentType'];
export type FreeSlot = components['schemas']['FreeSlot'];
export type ClientSummary = components['schemas']['ClientSummary'];

/** A coach as the pickers show them. */
export interface CoachOption {
  id: string;
  name: string;
}

/** A failure the views translate by `code` (`slot_taken`, `network_error`, …). */
export type ScheduleError = Pick<MachineError, 'code'>;

/** Reads `{ code }` from what an actor rejected with (ApiError, NetworkError, …). */
export const toScheduleError = (error: unknown): ScheduleError => ({ code: errorCodeOf(error) });

/** Field errors of a 400 answer, by the bare field name (`startTime`, `body.startTime`, …). */
export function fieldErrorsOf<F extends string>(
  error: unknown,
  fields: Partial<Record<string, F>>,
): Partial<Record<F, string>> {
  const list = (error as { fieldErrors?: Array<{ field: string; code: string }> } | undefined)
    ?.fieldErrors;
  const result: Partial<Record<F, string>> = {};
  for (const e of list ?? []) {
    const bare = e.field.split(/[./]/).filter(Boolean).at(-1) ?? e.field;
    const field = fields[bare];
    if (field) result[field] ??= e.code;
  }
  return result;
}

/** The booking call: the request body and the key that makes a retry after a lost answer safe. */
export interface BookingRequest {
  idempotencyKey: string;
  body: components['schemas']['CreateAppointmentRequest'];
}

/** The booking of the chosen free slot for the client: a video (jitsi), not provisional appointment. */
export function bookingRequestOf(
  context: { idempotencyKey: string | null; client: { id: string } | null; slot: FreeSlot | null },
  appointmentType: AppointmentType,
): BookingRequest {
  return {
    idempotencyKey: context.idempotencyKey!,
    body: {
      clientId: context.client!.id,
      coachId: context.slot!.coachId,
      startDate: context.slot!.startDate,
      endDate: context.slot!.endDate,
      appointmentType,
      meetingType: 'jitsi',
      isProvisional: false,
    },
  };
}

/** Guards of the machines that start with the coach: managers pick one, a coach has their own. */
export const coachGuards = {
  canPickCoach: ({ context }: { context: { canPickCoach: boolean } }) => context.canPickCoach,
  hasCoach: ({ context }: { context: { coachId: string | null } }) => context.coachId !== null,
};

/** The first state: managers load the coaches, a coach goes on to `withCoach`, else noCoach. */
export const startingState = <const T extends string>(withCoach: T) =>
  ({
    always: [
      { guard: 'canPickCoach', target: 'loadingCoaches' },
      { guard: 'hasCoach', target: withCoach },
      { target: 'noCoach' },
    ],
  }) as const;
