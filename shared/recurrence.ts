/**
 * The weekly rules the availability API accepts (CreateAvailabilityRequest.recurrence: only
 * FREQ=WEEKLY with INTERVAL, BYDAY, UNTIL or COUNT, WKST=MO) as form values and back. The
 * subset is small and fixed by the contract, so a full RRULE library is not needed here.
 */
export const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export type RepeatEnd =
  { kind: 'never' } | { kind: 'until'; date: string } | { kind: 'count'; count: number };

export interface WeeklyRule {
  interval: number;
  days: Weekday[];
  end: RepeatEnd;
}

/** ISO day number (Monday 1) → RRULE day. */
export const weekdayOf = (dayOfWeek: number): Weekday => WEEKDAYS[(dayOfWeek - 1) % 7]!;

export function formatRule(rule: WeeklyRule): string {
  const parts = ['FREQ=WEEKLY'];
  if (rule.interval > 1) parts.push(`INTERVAL=${rule.interval}`);
  const days = WEEKDAYS.filter((d) => rule.days.includes(d));
  if (days.length) parts.push(`BYDAY=${days.join(',')}`);
  if (rule.end.kind === 'until') parts.push(`UNTIL=${rule.end.date.replaceAll('-', '')}`);
  if (rule.end.kind === 'count') parts.push(`COUNT=${rule.end.count}`);
  parts.push('WKST=MO');
  return parts.join(';');
}

/** Parses a rule of the accepted subset; `startDay` gives BYDAY when the rule has none. */
export function parseRule(rrule: string, startDayOfWeek: number): WeeklyRule {
  const rule: WeeklyRule = { interval: 1, days: [], end: { kind: 'never' } };
  for (const part of rrule.split(';')) {
    const [key, value = ''] = part.split('=');
    if (key === 'INTERVAL') rule.interval = Number(value) || 1;
    if (key === 'BYDAY') {
      rule.days = value
        .split(',')
        .filter((d): d is Weekday => (WEEKDAYS as readonly string[]).includes(d));
    }
    if (key === 'UNTIL') {
      rule.end = {
        kind: 'until',
        date: `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}`,
      };
    }
    if (key === 'COUNT') rule.end = { kind: 'count', count: Number(value) };
  }
  if (rule.days.length === 0) rule.days = [weekdayOf(startDayOfWeek)];
  return rule;
}
