/**
 * When the video room of an appointment may be entered: a little before the start until a
 * while after the end. The one definition for the server (which opens the room and signs
 * the room token for exactly this window) and the screens (which offer the join button for
 * the same window). The server reads the minutes from its configuration; the screens use the
 * defaults, which the server's configuration defaults to as well.
 */
export interface JoinMinutes {
  /** Minutes before the start (MEETING_JOIN_EARLY_MINUTES). */
  early: number;
  /** Minutes after the end (MEETING_JOIN_LATE_MINUTES). */
  late: number;
}

export const DEFAULT_JOIN_MINUTES: JoinMinutes = { early: 10, late: 30 };

const MINUTE_MS = 60_000;

/** The window as epoch milliseconds, both ends included. */
export function joiningWindowMs(
  appointment: { startDate: string; endDate: string },
  minutes: JoinMinutes = DEFAULT_JOIN_MINUTES,
): { fromMs: number; untilMs: number } {
  return {
    fromMs: Date.parse(appointment.startDate) - minutes.early * MINUTE_MS,
    untilMs: Date.parse(appointment.endDate) + minutes.late * MINUTE_MS,
  };
}

/** Whether the room is open at `nowMs` (cancelled appointments have no room). */
export function roomIsOpen(
  appointment: { startDate: string; endDate: string; cancelledAt?: string | null },
  nowMs: number,
  minutes: JoinMinutes = DEFAULT_JOIN_MINUTES,
): boolean {
  if (appointment.cancelledAt) return false;
  const { fromMs, untilMs } = joiningWindowMs(appointment, minutes);
  return nowMs >= fromMs && nowMs <= untilMs;
}
