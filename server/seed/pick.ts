/**
 * Stable choices by the data's own (seeded) ids, so the history is the same on every seed
 * without another random generator: `slot` names which hex digits of the id decide, so two
 * choices about the same record do not go together.
 */
// Four-digit windows in the random parts of a UUID v4 (not the version or variant digits).
const DIGITS = [0, 4, 9, 24, 28, 32] as const;

/** A number in 0..n-1 from the id's hex digits at `slot`. */
export function stableInt(id: string, n: number, slot = 0): number {
  const at = DIGITS[slot % DIGITS.length]!;
  return parseInt(id.slice(at, at + 4), 16) % n;
}

/** True for about `percent` % of ids. */
export const picked = (id: string, percent: number, slot = 0) => stableInt(id, 100, slot) < percent;

/** One element of a list, by the id. */
export const pickFrom = <T>(list: readonly T[], id: string, slot = 0): T =>
  list[stableInt(id, list.length, slot)]!;
