import { asc, eq } from 'drizzle-orm';
import ical, { type VEvent } from 'node-ical';
import { TestClock } from 'pg-boss';
import { communications } from '../../server/db/schema/index';
import { DELIVER_JOB, REMINDER_JOB } from '../../server/features/notifications/enqueue';
import type { Api } from '../support/api';

export { DELIVER_JOB, REMINDER_JOB };

/** A pg-boss test clock at the real time: tests move it instead of waiting. */
export const testClock = () => new TestClock(new Date());

/** The stored messages about an appointment, oldest first (database view, not the API). */
export async function messagesOf(api: Api, appointmentId: string) {
  return api.database.db
    .select()
    .from(communications)
    .where(eq(communications.appointmentId, appointmentId))
    .orderBy(asc(communications.createdAt), asc(communications.id));
}

export interface ParsedInvite {
  method: string | undefined;
  event: VEvent;
}

/** Parses an iCalendar text with node-ical and returns its method and its one event. */
export function parseInvite(text: string): ParsedInvite {
  const parsed = ical.sync.parseICS(text);
  const events = Object.values(parsed).filter((c): c is VEvent => c?.type === 'VEVENT');
  if (events.length !== 1) throw new Error(`expected one VEVENT, got ${events.length}`);
  const calendar = parsed.vcalendar as unknown as { method?: string } | undefined;
  return { method: calendar?.method, event: events[0]! };
}

/** All events of a feed, by UID. */
export function parseFeed(text: string): VEvent[] {
  return Object.values(ical.sync.parseICS(text)).filter((c): c is VEvent => c?.type === 'VEVENT');
}

export const urlOf = (event: VEvent) => {
  const url = (event as unknown as { url?: string | { val: string } }).url;
  return typeof url === 'string' ? url : url?.val;
};
