/**
 * The iCalendar object of an appointment as it goes into a coach's receiving calendar,
 * built with ical-generator like the invitations. It carries the invitation's UID and
 * SEQUENCE, so a calendar app that also got the invitation mail shows one event.
 *
 * It says when, and nothing about why: the summary is "Termin" (with the client's first name
 * only when the coach chose that), never the appointment type, the client's full name or
 * anything from the record; a calendar server is outside the practice's data protection.
 * No ORGANIZER or ATTENDEE: servers with implicit scheduling (Nextcloud, iCloud) would
 * otherwise mail invitations of their own to the people named.
 */
import ical, { ICalEventStatus } from 'ical-generator';
import { appointmentUid } from '../../../shared/calendar-uid';

export const EVENT_SUMMARY = 'Termin';

export interface WrittenEvent {
  appointmentId: string;
  sequence: number;
  start: string;
  end: string;
  /** Only when the connection shares it. */
  clientFirstName: string | null;
  /** The coach's meeting page. */
  link: string;
  externalMeetingUrl: string | null;
  stamp: Date;
}

export const uidDomainOf = (publicUrl: string) => new URL(publicUrl).hostname;

export function eventSummary(clientFirstName: string | null): string {
  const name = clientFirstName?.trim();
  return name ? `${EVENT_SUMMARY}: ${name}` : EVENT_SUMMARY;
}

export function buildWrittenEvent(event: WrittenEvent, publicUrl: string): string {
  const calendar = ical({
    prodId: { company: 'Sprechstunde', product: 'Sprechstunde', language: 'DE' },
  });
  calendar.createEvent({
    id: appointmentUid(event.appointmentId, uidDomainOf(publicUrl)),
    sequence: event.sequence,
    stamp: event.stamp,
    start: new Date(event.start),
    end: new Date(event.end),
    summary: eventSummary(event.clientFirstName),
    description: [
      `Zum Videotermin: ${event.link}`,
      ...(event.externalMeetingUrl ? [`Link zum Termin: ${event.externalMeetingUrl}`] : []),
    ].join('\n'),
    url: event.link,
    status: ICalEventStatus.CONFIRMED,
  });
  return calendar.toString();
}

const UID = /^appointment-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}@(.+)$/i;

/** Whether a UID is one of this app's appointments (as written back or sent by invitation). */
export function isOwnUid(uid: string, publicUrl: string): boolean {
  const match = UID.exec(uid.trim());
  return !!match && match[1]!.toLowerCase() === uidDomainOf(publicUrl).toLowerCase();
}

/** The object's address in a calendar: the UID as file name, as calendar apps do it. */
export function objectUrl(calendarUrl: string, appointmentId: string, publicUrl: string): string {
  const base = calendarUrl.endsWith('/') ? calendarUrl : `${calendarUrl}/`;
  const name = encodeURIComponent(appointmentUid(appointmentId, uidDomainOf(publicUrl)));
  return new URL(`${name}.ics`, base).href;
}
