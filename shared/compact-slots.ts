import type { components } from './contract/product';

type FreeSlot = components['schemas']['FreeSlot'];
type CompactFreeSlots = components['schemas']['CompactFreeSlots'];

/**
 * The slots of a compact answer (`form=compact`) as the full form lists them, in start order:
 * what the pickers work with. Plain arithmetic on the instants the answer gives (no time-zone
 * rules), so the client pages' bundle stays without Temporal.
 */
export function expandCompactSlots(answer: CompactFreeSlots): FreeSlot[] {
  const slots: FreeSlot[] = [];
  const durationMs = answer.durationMinutes * 60_000;
  for (const day of answer.days) {
    const dayStart = Date.parse(day.start);
    for (const group of day.coaches) {
      const coach = answer.coaches[group.coach];
      if (!coach) continue;
      for (const minutes of group.starts) {
        const start = dayStart + minutes * 60_000;
        slots.push({
          startDate: new Date(start).toISOString(),
          endDate: new Date(start + durationMs).toISOString(),
          coachId: coach.id,
          coach,
        });
      }
    }
  }
  // Within a day the answer groups by coach; the full form is in start order, then coach id.
  return slots.sort((a, b) =>
    a.startDate < b.startDate
      ? -1
      : a.startDate > b.startDate
        ? 1
        : a.coachId < b.coachId
          ? -1
          : a.coachId > b.coachId
            ? 1
            : 0,
  );
}

/** The slots of either form of the slot answer. */
export const slotsOfAnswer = (
  answer: CompactFreeSlots | components['schemas']['FreeSlots'],
): FreeSlot[] => ('days' in answer ? expandCompactSlots(answer) : answer.slots);
