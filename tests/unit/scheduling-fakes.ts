import type {
  Appointment,
  Availability,
  CalendarEvent,
  FreeSlot,
} from '../../src/machines/scheduling/shared';

export const COACH_ID = '11111111-1111-4111-8111-111111111111';
export const OTHER_COACH_ID = '22222222-2222-4222-8222-222222222222';
export const CLIENT_ID = '33333333-3333-4333-8333-333333333333';
export const SERIES_ID = '44444444-4444-4444-8444-444444444444';
export const APPOINTMENT_ID = '55555555-5555-4555-8555-555555555555';

export function availability(overrides: Partial<Availability> = {}): Availability {
  return {
    id: SERIES_ID,
    coachId: COACH_ID,
    coach: { id: COACH_ID, firstName: 'Clara', lastName: 'Coach' },
    kind: 'available',
    timeZone: 'Europe/Berlin',
    startDay: '2026-03-02',
    startTime: '09:00',
    endTime: '12:00',
    recurrence: 'FREQ=WEEKLY;BYDAY=MO,WE;WKST=MO',
    note: null,
    overrides: [],
    // Week of 23 March 2026 (CET, UTC+1): Monday and Wednesday 09:00–12:00.
    occurrences: [
      {
        occurrenceDate: '2026-03-23',
        startDate: '2026-03-23T08:00:00.000Z',
        endDate: '2026-03-23T11:00:00.000Z',
        modified: false,
      },
      {
        occurrenceDate: '2026-03-25',
        startDate: '2026-03-25T08:00:00.000Z',
        endDate: '2026-03-25T11:00:00.000Z',
        modified: false,
      },
    ],
    createdAt: '2026-03-01T10:00:00.000Z',
    updatedAt: '2026-03-01T10:00:00.000Z',
    ...overrides,
  };
}

export function appointment(overrides: Partial<Appointment> = {}): Appointment {
  return {
    id: APPOINTMENT_ID,
    startDate: '2026-03-25T09:00:00.000Z',
    endDate: '2026-03-25T09:50:00.000Z',
    appointmentType: 'followup',
    meetingType: 'jitsi',
    meetingCodeCoach: 'abcd-efgh-jkmn',
    meetingCodeClient: 'pqrs-tvwx-yz12',
    cancelledAt: null,
    createdAt: '2026-03-01T10:00:00.000Z',
    updatedAt: '2026-03-01T10:00:00.000Z',
    client: { id: CLIENT_ID, firstName: 'Erika', lastName: 'Mustermann' },
    coach: { id: COACH_ID, firstName: 'Clara', lastName: 'Coach' },
    clientId: CLIENT_ID,
    coachId: COACH_ID,
    clientName: 'Erika Mustermann',
    isProvisional: false,
    provisionalUntil: null,
    noShow: false,
    appointmentNumber: 2,
    externalMeetingUrl: null,
    ...overrides,
  };
}

export function appointmentEvent(overrides: Partial<CalendarEvent> = {}): CalendarEvent {
  return {
    id: APPOINTMENT_ID,
    kind: 'appointment',
    startDate: '2026-03-25T09:00:00.000Z',
    endDate: '2026-03-25T09:50:00.000Z',
    title: 'Erika Mustermann',
    coachId: COACH_ID,
    appointmentId: APPOINTMENT_ID,
    appointmentType: 'followup',
    availabilityId: null,
    occurrenceDate: null,
    isProvisional: false,
    ...overrides,
  };
}

export function holidayEvent(
  date: string,
  name: string,
  start: string,
  end: string,
): CalendarEvent {
  return {
    id: `holiday:${date}`,
    kind: 'holiday',
    startDate: start,
    endDate: end,
    title: name,
    coachId: null,
    appointmentId: null,
    appointmentType: null,
    availabilityId: null,
    occurrenceDate: date,
    isProvisional: false,
  };
}

export function slot(startDate: string, endDate: string, coachId = COACH_ID): FreeSlot {
  return {
    startDate,
    endDate,
    coachId,
    coach: { id: coachId, firstName: 'Clara', lastName: 'Coach' },
  };
}

/** An ApiError-like rejection (what the API client throws). */
export const apiError = (
  status: number,
  code: string,
  fieldErrors: Array<{ field: string; code: string }> = [],
) => Object.assign(new Error(code), { status, code, fieldErrors });
