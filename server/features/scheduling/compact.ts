import { Temporal } from '@js-temporal/polyfill';
import { ZONE } from '../../../shared/time';
import type { components } from '../../../shared/contract/product';
import type { CoachRef, Slot } from './slots';

type CompactFreeSlots = components['schemas']['CompactFreeSlots'];
type CompactSlotDay = components['schemas']['CompactSlotDay'];
type CompactCoachSlots = components['schemas']['CompactCoachSlots'];

/**
 * Slots (in start order) in the compact form the pickers ask for: a coach's id and names once,
 * then per Berlin day and coach only the starts, as minutes after the day's start. The full
 * form repeats about 220 bytes per slot (two instants, the coach's id twice, the names); a
 * picker shows day tabs and one day's times, which this carries in a few bytes a slot.
 *
 * Minutes count elapsed time from the day's start instant rather than wall-clock time, so the
 * hour that exists twice in October stays unambiguous.
 */
export function compactSlots(slots: readonly Slot[], durationMinutes: number): CompactFreeSlots {
  const coaches: CoachRef[] = [];
  const coachIndex = new Map<string, number>();
  const days: CompactSlotDay[] = [];
  let dayStart = 0;
  let dayEnd = -Infinity;
  let groups = new Map<number, CompactCoachSlots>();
  let day: CompactSlotDay | undefined;
  for (const slot of slots) {
    if (slot.start >= dayEnd || slot.start < dayStart) {
      const date = Temporal.Instant.fromEpochMilliseconds(slot.start)
        .toZonedDateTimeISO(ZONE)
        .toPlainDate();
      const midnight = date.toZonedDateTime({ timeZone: ZONE });
      dayStart = midnight.epochMilliseconds;
      dayEnd = midnight.add({ days: 1 }).epochMilliseconds;
      day = { date: date.toString(), start: new Date(dayStart).toISOString(), coaches: [] };
      days.push(day);
      groups = new Map();
    }
    let index = coachIndex.get(slot.coach.id);
    if (index === undefined) {
      index = coaches.length;
      coachIndex.set(slot.coach.id, index);
      coaches.push({
        id: slot.coach.id,
        firstName: slot.coach.firstName,
        lastName: slot.coach.lastName,
      });
    }
    let group = groups.get(index);
    if (!group) {
      group = { coach: index, starts: [] };
      groups.set(index, group);
      day!.coaches.push(group);
    }
    group.starts.push(Math.round((slot.start - dayStart) / 60_000));
  }
  return { timeZone: ZONE as 'Europe/Berlin', durationMinutes, coaches, days };
}
