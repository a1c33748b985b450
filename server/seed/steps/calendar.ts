import type { Faker } from '@faker-js/faker';
import { holidayDuring } from '../../features/scheduling/index';
import type { COACH_PLANS } from '../data';
import type { DemoClock } from './clock';

/** One coach's week grid: one-hour slots inside the coach's hours, each used at most once. */
export class CoachCalendar {
  private used = new Set<string>();
  readonly count = { placed: 0 };

  constructor(
    private plan: (typeof COACH_PLANS)[number],
    private clock: DemoClock,
    private f: Faker,
    private holidayState: string,
  ) {}

  private hoursOn(day: number): number[] {
    // A practice is closed on public holidays: the demo books none, as the pickers offer none.
    const noon = this.clock.at(day, 12);
    if (holidayDuring(this.holidayState, noon, noon + 1)) return [];
    const weekday = this.clock.weekday(day);
    const hours: number[] = [];
    for (const block of this.plan.blocks) {
      if (!block.days.includes(weekday)) continue;
      for (let h = block.start; h < block.end; h++) hours.push(h);
    }
    return hours;
  }

  /** The first free slot on `fromDay` or the days after it. */
  place(fromDay: number): { day: number; hour: number } {
    for (let day = fromDay; day < fromDay + 120; day++) {
      const hours = this.hoursOn(day);
      if (hours.length === 0) continue;
      for (const hour of this.f.helpers.shuffle(hours)) {
        const key = `${day}:${hour}`;
        if (this.used.has(key)) continue;
        this.used.add(key);
        this.count.placed++;
        return { day, hour };
      }
    }
    throw new Error('demo calendar is full');
  }
}
