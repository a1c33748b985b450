import type { Faker } from '@faker-js/faker';
import { COACH_PLANS } from '../data';
import type { AvailabilityPlan } from '../types';
import { iso, type DemoClock } from './clock';

const hh = (h: number) => `${String(h).padStart(2, '0')}:00`;

/**
 * Weekly availability, open-ended, from the week before the earliest appointment. DTSTART
 * falls on one of the rule's own weekdays (RFC 5545: otherwise the set is undefined).
 */
export function weeklyAvailability(
  f: Faker,
  clock: DemoClock,
  coachIds: readonly string[],
): AvailabilityPlan[] {
  const out: AvailabilityPlan[] = [];
  const windowStart = -84 - (clock.date(-84).dayOfWeek - 1);
  for (const [i, plan] of COACH_PLANS.entries()) {
    for (const block of plan.blocks) {
      let first = windowStart;
      while (!block.days.includes(clock.weekday(first))) first++;
      out.push({
        id: f.string.uuid(),
        coachId: coachIds[i]!,
        kind: 'available',
        startDay: clock.date(first).toString(),
        startTime: hh(block.start),
        endTime: hh(block.end),
        seriesStart: iso(clock.at(first, block.start)),
        recurrence: `FREQ=WEEKLY;INTERVAL=1;BYDAY=${block.days.join(',')};WKST=MO`,
        note: null,
      });
    }
  }
  return out;
}
