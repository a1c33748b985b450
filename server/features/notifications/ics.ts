import ical, {
  ICalAttendeeRole,
  ICalAttendeeStatus,
  ICalCalendarMethod,
  ICalEventStatus,
} from 'ical-generator';
import { appointmentUid } from '../../../shared/calendar-uid';

export interface CalendarEvent {
  appointmentId: string;
  sequence: number;
  start: string;
  end: string;
  summary: string;
  description: string;
  /** The recipient's meeting link (URL and location of the event). */
  link: string;
  cancelled?: boolean;
  attendees?: { name: string; email: string }[];
}

export interface CalendarOptions {
  /** REQUEST (invitation), CANCEL (cancellation) or null for a subscribable feed. */
  method: 'REQUEST' | 'CANCEL' | null;
  practice: string;
  organizerEmail: string;
  /** Host part of every UID (the app's host), so UIDs are globally unique and stable. */
  uidDomain: string;
  name?: string;
  events: CalendarEvent[];
}

export { appointmentUid };

/**
 * An RFC 5545 calendar built with ical-generator: one VEVENT per appointment, times in UTC,
 * the practice as ORGANIZER, the meeting link as URL and LOCATION, and the appointment's
 * SEQUENCE, so a reschedule or cancellation replaces the copy already in a calendar.
 */
export function buildCalendar(options: CalendarOptions): string {
  const calendar = ical({
    prodId: { company: options.practice, product: 'Sprechstunde', language: 'DE' },
    ...(options.name ? { name: options.name } : {}),
    ...(options.method
      ? {
          method:
            options.method === 'CANCEL' ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
        }
      : {}),
  });
  for (const event of options.events) {
    const cancelled = options.method === 'CANCEL' || event.cancelled === true;
    calendar.createEvent({
      id: appointmentUid(event.appointmentId, options.uidDomain),
      sequence: event.sequence,
      start: new Date(event.start),
      end: new Date(event.end),
      summary: event.summary,
      description: event.description,
      location: event.link,
      url: event.link,
      status: cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
      organizer: { name: options.practice, email: options.organizerEmail },
      attendees: (event.attendees ?? []).map((a) => ({
        name: a.name,
        email: a.email,
        role: ICalAttendeeRole.REQ,
        status: ICalAttendeeStatus.NEEDSACTION,
      })),
    });
  }
  return calendar.toString();
}

/** The address inside a From header ("Name <a@b>" or "a@b"). */
export function addressOf(from: string): string {
  const match = /<([^>]+)>/.exec(from);
  return (match ? match[1]! : from).trim();
}
