import type { Faker } from '@faker-js/faker';
import { newMeetingCode, newVideoRoom } from '../../features/appointments/index';
import { DURATIONS } from '../data';
import type { DemoData } from '../types';
import type { ClientPlan } from './appointment-plan';
import { HOUR, iso, type DemoClock } from './clock';

/**
 * Meeting codes and video rooms come from the operating system's randomness (the same
 * generator the app uses), never from the seeded faker: demo codes are not guessable.
 */
export function meetingCodes() {
  const used = new Set<string>();
  return () => {
    let code = newMeetingCode();
    while (used.has(code)) code = newMeetingCode();
    used.add(code);
    return code;
  };
}

export interface Timeline {
  nowMs: number;
  clock: DemoClock;
  /** Never after the seed moment (a minute before it). */
  clampPast(ms: number): number;
}

/** What the client's record takes from its appointments. */
export interface AppointmentOutcome {
  /** The latest change the appointments made (booked, cancelled, held). */
  lastChange: number;
  /** The end of the last appointment that was not cancelled. */
  lastLiveEnd: number | null;
}

/**
 * The client's appointments with times, flags and bookkeeping, in the order they happen:
 * booked at sign-up, later ones right after the previous one; a few cancelled, a few past ones
 * missed, some new ones still provisional.
 */
export function appointmentsOf(
  f: Faker,
  t: Timeline,
  client: { id: string; index: number; created: number },
  plan: ClientPlan,
  coachIds: readonly string[],
  uniqueCode: () => string,
  out: DemoData,
): AppointmentOutcome {
  const { nowMs, clock, clampPast } = t;
  const { index } = client;
  let lastChange = client.created;
  let previousCreated = client.created;
  let previousEnd = client.created;
  let lastLiveEnd: number | null = null;
  for (const [i, p] of plan.planned.entries()) {
    const start = clock.at(p.day, p.hour);
    const end = start + DURATIONS[p.type] * 60_000;
    // Booked at sign-up, later ones right after the previous appointment; appointments
    // after a future one were booked together with it.
    const created =
      i === 0
        ? Math.max(client.created, clampPast(client.created + 5 * 60_000))
        : previousEnd <= nowMs
          ? Math.max(previousCreated, clampPast(previousEnd + 15 * 60_000))
          : previousCreated;
    const past = end <= nowMs;
    const cancelled = index !== 0 && f.datatype.boolean({ probability: 0.06 });
    const cancelledAt = cancelled
      ? Math.round(
          created +
            Math.max(0, clampPast(start - HOUR) - created) *
              f.number.float({ min: 0.3, max: 0.95 }),
        )
      : null;
    const noShow = !cancelled && past && f.datatype.boolean({ probability: 0.05 });
    const provisional =
      plan.kind === 'new' && index !== 0 && !cancelled && f.datatype.boolean({ probability: 0.3 });
    const consult = p.type.endsWith('arztkonsultation');
    out.appointments.push({
      id: f.string.uuid(),
      clientId: client.id,
      coachId: coachIds[p.coach]!,
      startDate: iso(start),
      endDate: iso(end),
      appointmentType: p.type,
      meetingType: consult ? 'arztkonsultation' : 'jitsi',
      meetingCodeCoach: uniqueCode(),
      meetingCodeClient: uniqueCode(),
      videoRoom: newVideoRoom(),
      appointmentNumber: i + 1,
      isProvisional: provisional,
      provisionalUntil: provisional ? iso(nowMs + f.number.int({ min: 12, max: 48 }) * HOUR) : null,
      noShow,
      cancelledAt: cancelledAt === null ? null : iso(cancelledAt),
      createdAt: iso(created),
      updatedAt: iso(Math.max(created, clampPast(cancelledAt ?? (past ? end : created)))),
    });
    previousCreated = created;
    previousEnd = end;
    if (!cancelled) lastLiveEnd = end;
    lastChange = Math.max(lastChange, clampPast(cancelledAt ?? (past ? end : created)));
  }
  return { lastChange, lastLiveEnd };
}
