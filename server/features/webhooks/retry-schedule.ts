/**
 * Delays before the 2nd, 3rd, … automatic attempt (Standard Webhooks' table): the last try
 * comes about 75 hours after the first, so a receiver gets three days to come back.
 */
export const RETRY_DELAYS_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  14 * 3_600_000,
  20 * 3_600_000,
  24 * 3_600_000,
] as const;

/** Automatic attempts of one message, the first included. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** A receiver's retry-after is honoured up to this. */
const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

/**
 * Milliseconds from a failed attempt `attemptNo` (1-based) to the next, ±10 % jitter so that a
 * receiver coming back is not hit by every backlog at once; at least what its retry-after
 * asked for. null: no attempt left.
 */
export function nextDelayMs(
  attemptNo: number,
  retryAfterMs: number | null,
  random: () => number = Math.random,
): number | null {
  const base = RETRY_DELAYS_MS[attemptNo - 1];
  if (base === undefined) return null;
  const jittered = Math.round(base * (0.9 + 0.2 * random()));
  return Math.max(jittered, Math.min(retryAfterMs ?? 0, MAX_RETRY_AFTER_MS));
}

/** A Retry-After header (seconds or an HTTP date) in milliseconds from `now`; null if absent or bad. */
export function parseRetryAfter(value: string | undefined, now: Date): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}
