import type { components } from '../../shared/contract/product';
import { appointmentUid } from '../../shared/calendar-uid';

/**
 * Free slots and appointments for the client pages. Times are instants (ISO
 * strings) on the wire and in the machines; days and clock times are Europe/Berlin wall time,
 * read with `Intl` (native in every browser), so the client bundle carries no Temporal
 * polyfill (bench/web.ts: /client-signup ≤ 120 KB gzip).
 */
export type FreeSlot = components['schemas']['FreeSlot'];
export type ClientAppointment = components['schemas']['ClientAppointment'];

export const ZONE = 'Europe/Berlin';
/** How far ahead the initial-appointment calendar looks (the API allows up to 62 days). */
export const SLOT_WINDOW_DAYS = 28;
/** Length of the initial appointment (docs/domain.md). */
export const INITIAL_MINUTES = 30;

const dayKey = new Intl.DateTimeFormat('en-CA', {
  timeZone: ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});
const clock = new Intl.DateTimeFormat('de-DE', {
  timeZone: ZONE,
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** The Berlin date of an instant, `YYYY-MM-DD`. */
export const berlinDay = (iso: string): string => dayKey.format(new Date(iso));
/** `HH:mm` in Berlin. */
export const berlinClock = (iso: string): string => clock.format(new Date(iso));

export interface SlotDay {
  day: string;
  slots: FreeSlot[];
}

/** Slots grouped by Berlin day, in order; days without free slots are left out. */
export function groupByDay(slots: readonly FreeSlot[]): SlotDay[] {
  const days: SlotDay[] = [];
  for (const slot of [...slots].sort((a, b) => a.startDate.localeCompare(b.startDate))) {
    const day = berlinDay(slot.startDate);
    const last = days[days.length - 1];
    if (last?.day === day) last.slots.push(slot);
    else days.push({ day, slots: [slot] });
  }
  return days;
}

/** The window of the slot request: from now for `SLOT_WINDOW_DAYS` days. */
export function slotWindow(now: number): { startDate: string; endDate: string } {
  const start = new Date(now);
  start.setUTCSeconds(0, 0);
  return {
    startDate: start.toISOString(),
    endDate: new Date(start.getTime() + SLOT_WINDOW_DAYS * 86_400_000).toISOString(),
  };
}

/** True when the browser shows other wall times than Berlin now or in half a year. */
export function zoneDiffers(browserZone: string, now: number): boolean {
  if (browserZone === ZONE) return false;
  const offset = (zone: string, at: number) => {
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hour12: false,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    }).formatToParts(new Date(at));
    const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
    return (
      Date.UTC(get('year'), get('month') - 1, get('day'), get('hour') % 24, get('minute')) - at
    );
  };
  try {
    return [now, now + 182 * 86_400_000].some(
      (at) => Math.round((offset(browserZone, at) - offset(ZONE, at)) / 60_000) !== 0,
    );
  } catch {
    return true;
  }
}

/** The error an API actor failed with, as the pages need it. */
export interface ClientError {
  code: string;
  fields?: Record<string, string>;
}

export function toClientError(error: unknown): ClientError {
  const e = error as { code?: unknown; name?: unknown; fieldErrors?: unknown; errors?: unknown };
  if (e && typeof e === 'object' && e.name === 'NetworkError') return { code: 'network' };
  const code = e && typeof e.code === 'string' ? e.code : 'unknown';
  const list = (
    Array.isArray(e?.fieldErrors) ? e.fieldErrors : Array.isArray(e?.errors) ? e.errors : []
  ) as Array<{
    field?: string;
    code?: string;
  }>;
  const fields: Record<string, string> = {};
  for (const f of list) if (f.field) fields[f.field.replace(/^body\./, '')] = f.code ?? 'invalid';
  return Object.keys(fields).length ? { code, fields } : { code };
}

/** One iCalendar (RFC 5545) event for "add to calendar", made in the browser. */
export function appointmentIcs(
  appointment: Pick<
    ClientAppointment,
    'id' | 'startDate' | 'endDate' | 'meetingCodeClient' | 'coach'
  >,
  options: { origin: string; summary: string; now: number },
): string {
  const stamp = (iso: string | number) =>
    new Date(iso)
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '');
  const escape = (text: string) => text.replace(/[\\;,]/g, (c) => `\\${c}`).replace(/\n/g, '\\n');
  const link = `${options.origin}/meeting/${appointment.meetingCodeClient}`;
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Sprechstunde//Client//DE',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:${appointmentUid(appointment.id, new URL(options.origin).hostname)}`,
    `DTSTAMP:${stamp(options.now)}`,
    `DTSTART:${stamp(appointment.startDate)}`,
    `DTEND:${stamp(appointment.endDate)}`,
    `SUMMARY:${escape(options.summary)}`,
    `DESCRIPTION:${escape(`Zum Videotermin: ${link}\nMeeting-Code: ${appointment.meetingCodeClient}`)}`,
    `URL:${link}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  // Lines longer than 75 octets are folded (RFC 5545 §3.1).
  return lines.map(fold).join('\r\n') + '\r\n';
}

function fold(line: string): string {
  const bytes = new TextEncoder().encode(line);
  if (bytes.length <= 75) return line;
  const out: string[] = [];
  let current = '';
  let size = 0;
  for (const ch of line) {
    const n = new TextEncoder().encode(ch).length;
    if (size + n > (out.length === 0 ? 75 : 74)) {
      out.push(current);
      current = '';
      size = 0;
    }
    current += ch;
    size += n;
  }
  out.push(current);
  return out.join('\r\n ');
}
