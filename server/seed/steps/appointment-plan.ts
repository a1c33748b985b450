import type { Faker } from '@faker-js/faker';
import type { REJECTION_REASONS } from '../../../shared/contract/enums';
import { COACH_PLANS } from '../data';
import type { AppointmentType } from '../types';
import type { CoachCalendar } from './calendar';

export type RejectionReason = (typeof REJECTION_REASONS)[number];

/** Where a client stands: in coaching, done, turned away, just signed up, or not booked yet. */
export type Kind = 'active' | 'closed' | 'rejected' | 'new' | 'unbooked';

/** One booked slot: the type, the day offset and hour from the calendar, the coach's index. */
export interface Planned {
  type: AppointmentType;
  day: number;
  hour: number;
  coach: number;
}

export interface ClientPlan {
  kind: Kind;
  planned: Planned[];
  rejection: RejectionReason | null;
  /** Days after the last held appointment that a closed client's sessions were closed. */
  closedAfterDays: number | null;
}

/**
 * A client's course as a list of appointments placed in the coaches' calendars: an
 * Erstgespräch, a Ersttermin and follow-ups for active clients; a finished course for closed
 * ones; at most the first steps for rejected ones; one upcoming Erstgespräch for new ones.
 */
export function planClient(
  f: Faker,
  index: number,
  calendars: readonly CoachCalendar[],
): ClientPlan {
  const coachIndex = index % COACH_PLANS.length;
  // The demo client (index 0) has a future Erstgespräch to cancel or reschedule.
  const kind: Kind =
    index === 0
      ? 'new'
      : f.helpers.weightedArrayElement([
          { weight: 60, value: 'active' },
          { weight: 12, value: 'closed' },
          { weight: 9, value: 'rejected' },
          { weight: 13, value: 'new' },
          { weight: 6, value: 'unbooked' },
        ] as const);

  // The appointment plan: [type, earliest day offset]; actual days come from the calendar.
  const planned: Planned[] = [];
  const book = (type: AppointmentType, fromDay: number, coach = coachIndex) => {
    const slot = calendars[coach]!.place(fromDay);
    planned.push({ type, ...slot, coach });
    return slot.day;
  };
  // Coaches who take no initial appointments get their clients after someone else's Erstgespräch.
  const initialCoach = COACH_PLANS[coachIndex]!.takesInitialAppointments
    ? coachIndex
    : (coachIndex + 1) % COACH_PLANS.length;

  let rejection: RejectionReason | null = null;
  let closedAfterDays: number | null = null;
  if (kind === 'active') {
    let day = book('initial', f.number.int({ min: -63, max: -10 }), initialCoach);
    day = book('first', day + f.number.int({ min: 5, max: 9 }));
    if (f.datatype.boolean({ probability: 0.15 }))
      day = book('first-arztkonsultation', day + f.number.int({ min: 2, max: 5 }));
    if (f.datatype.boolean({ probability: 0.05 }))
      day = book('adhoc', day + f.number.int({ min: 1, max: 3 }));
    const horizon = f.number.int({ min: 3, max: 24 });
    const consultAt = f.datatype.boolean({ probability: 0.1 })
      ? f.number.int({ min: 1, max: 3 })
      : -1;
    for (let n = 0; n === 0 || day < horizon; n++) {
      day = book(
        n === consultAt ? 'followup-arztkonsultation' : 'followup',
        day + f.number.int({ min: 7, max: 14 }),
      );
    }
  } else if (kind === 'closed') {
    let day = book('initial', f.number.int({ min: -75, max: -50 }), initialCoach);
    day = book('first', day + f.number.int({ min: 5, max: 9 }));
    const followups = f.number.int({ min: 2, max: 4 });
    for (let n = 0; n < followups; n++)
      day = book('followup', day + f.number.int({ min: 6, max: 9 }));
    closedAfterDays = f.number.int({ min: 1, max: 4 });
  } else if (kind === 'rejected') {
    rejection = f.helpers.weightedArrayElement([
      { weight: 3, value: 'not_reachable' },
      { weight: 2, value: 'not_eligible' },
      { weight: 3, value: 'no_interest' },
      { weight: 2, value: 'declined_contract' },
      { weight: 1, value: 'other' },
    ] as const);
    if (rejection !== 'not_reachable') {
      const day = book('initial', f.number.int({ min: -50, max: -3 }), initialCoach);
      if (rejection === 'declined_contract') book('first', day + f.number.int({ min: 4, max: 8 }));
    }
  } else if (kind === 'new') {
    book('initial', f.number.int({ min: 1, max: 14 }), initialCoach);
  }
  return { kind, planned, rejection, closedAfterDays };
}
