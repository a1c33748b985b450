import { isoOfMs } from '../../time';
import { holidaysBetween } from './holidays';

/** Public holidays of the configured federal state overlapping [from, to), as calendar events. */
export function holidayEvents(state: string, from: number, to: number) {
  return holidaysBetween(state, from, to).map((h) => ({
    id: `holiday:${h.date}`,
    kind: 'holiday' as const,
    startDate: isoOfMs(h.start),
    endDate: isoOfMs(h.end),
    title: h.name.slice(0, 300),
    coachId: null,
    appointmentId: null,
    appointmentType: null,
    availabilityId: null,
    occurrenceDate: h.date,
    isProvisional: false,
  }));
}
