import type { Config } from '../../config';
import { createVideoAdapters, type VideoAdapters } from '../../adapters/video/video';
import { joiningWindowMs } from '../../../shared/meeting-window';
import { instantOfMs } from '../../time';

/**
 * Meeting codes as people type them: any case, with or without dashes or spaces, and the
 * Crockford look-alikes (i, l → 1; o → 0) forgiven. Twelve symbols become `xxxx-xxxx-xxxx`,
 * the stored form; anything else stays as typed (lower-cased) and finds nothing.
 */
export function normaliseMeetingCode(typed: string): string {
  const compact = typed
    .toLowerCase()
    .replace(/[\s-]/g, '')
    .replace(/[il]/g, '1')
    .replace(/o/g, '0');
  if (compact.length !== 12) return typed.toLowerCase();
  return [0, 4, 8].map((i) => compact.slice(i, i + 4)).join('-');
}

/** When the room may be entered (shared/meeting-window.ts, the screens apply the same rule). */
export function joiningWindow(
  config: Pick<Config, 'MEETING_JOIN_EARLY_MINUTES' | 'MEETING_JOIN_LATE_MINUTES'>,
  appointment: { startDate: string; endDate: string },
) {
  const { fromMs, untilMs } = joiningWindowMs(appointment, {
    early: config.MEETING_JOIN_EARLY_MINUTES,
    late: config.MEETING_JOIN_LATE_MINUTES,
  });
  return { from: instantOfMs(fromMs), until: instantOfMs(untilMs) };
}

/** How the client appears in the room: first name and last initial ("Klara M."). */
export const clientDisplayName = (firstName: string, lastName: string) =>
  lastName ? `${firstName} ${lastName.slice(0, 1)}.` : firstName;

export const personName = (p: { title?: string | null; firstName: string; lastName: string }) =>
  [p.title, p.firstName, p.lastName].filter(Boolean).join(' ');

const adapters = new WeakMap<Config, VideoAdapters>();

/** The video adapters for this configuration (built once per config object). */
export function videoAdaptersOf(config: Config): VideoAdapters {
  let found = adapters.get(config);
  if (!found) {
    found = createVideoAdapters(config);
    adapters.set(config, found);
  }
  return found;
}
