import type { events } from '../db/schema/index';
import type { DemoData } from './types';

type EventRow = typeof events.$inferInsert;
type Appointment = DemoData['appointments'][number];

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** What a client gives at sign-up, for client.created (the trail names fields, not values). */
const SIGNUP_FIELDS = [
  'campaign',
  'email',
  'firstName',
  'howDidYouHearAboutUs',
  'insurer',
  'lastName',
  'telephone',
  'yearOfBirth',
] as const;

const ms = (at: Date | string | null | undefined) => (at ? new Date(at).getTime() : null);

/** A stable share of the appointments, chosen by their (seeded) ids. */
const picked = (id: string, percent: number) => parseInt(id.slice(0, 8), 16) % 100 < percent;

/**
 * The business events the demo data implies, as the app records them when people act:
 * coaches set up, clients signing up, bookings, a few reschedules, cancellations, no-shows,
 * meetings held, sessions closed and contract reminders. Times are the data's own (never
 * after `now`), so the events lists and the dashboard show a practice in use from the start.
 */
export function demoHistory(data: DemoData, now: Date): EventRow[] {
  const nowMs = now.getTime();
  const userOfCoach = new Map(
    data.users.filter((u) => u.coachId).map((u) => [u.coachId!, u.id!] as const),
  );
  const admin = data.users.find((u) => u.role === 'ADMIN')?.id ?? null;
  const out: EventRow[] = [];
  const add = (at: number, row: Omit<EventRow, 'occurredAt' | 'source'>) => {
    if (at <= nowMs)
      out.push({ ...row, occurredAt: new Date(at).toISOString(), source: 'business' });
  };

  for (const coach of data.coaches) {
    add(ms(coach.createdAt)!, {
      type: 'coach.created',
      entityType: 'coach',
      entityId: coach.id!,
      coachId: coach.id!,
      actorUserId: admin,
      changes: { fields: ['email', 'firstName', 'lastName', 'telephone', 'title'] },
    });
  }

  for (const client of data.clients) {
    const clientId = client.id!;
    add(ms(client.createdAt)!, {
      type: 'client.created',
      entityType: 'client',
      entityId: clientId,
      clientId,
      changes: {
        fields: SIGNUP_FIELDS.filter((f) => client[f] != null),
        via: 'signup',
        linked: false,
      },
    });
    const reminded = ms(client.contractReminderSentAt);
    if (reminded) {
      add(reminded, {
        type: 'client.contract_reminder_sent',
        entityType: 'client',
        entityId: clientId,
        clientId,
      });
    }
    const closed = ms(client.sessionsClosedOn);
    if (closed) {
      add(closed, {
        type: 'client.sessions_closed',
        entityType: 'client',
        entityId: clientId,
        clientId,
        coachId: client.coachedById ?? null,
        actorUserId: client.coachedById ? (userOfCoach.get(client.coachedById) ?? null) : null,
      });
    }
  }

  for (const a of data.appointments)
    appointmentHistory(a, userOfCoach.get(a.coachId) ?? null, nowMs, add);
  return out.sort(
    (x, y) => Date.parse(x.occurredAt as string) - Date.parse(y.occurredAt as string),
  );
}

function appointmentHistory(
  a: Appointment,
  coachUser: string | null,
  nowMs: number,
  add: (at: number, row: Omit<EventRow, 'occurredAt' | 'source'>) => void,
) {
  const ids = {
    entityType: 'appointment',
    entityId: a.id!,
    appointmentId: a.id!,
    clientId: a.clientId,
    coachId: a.coachId,
  };
  const created = ms(a.createdAt)!;
  const start = ms(a.startDate)!;
  const end = ms(a.endDate)!;
  const cancelled = ms(a.cancelledAt);
  // The client books the Erstgespräch at sign-up; the coach books what follows.
  const byClient = a.appointmentType === 'initial';
  add(created, {
    ...ids,
    type: 'appointment.created',
    actorUserId: byClient ? null : coachUser,
    changes: { startDate: a.startDate, endDate: a.endDate, appointmentType: a.appointmentType },
  });
  // A few clients moved their appointment by a day once, halfway between booking and start.
  if (!cancelled && start - created > 2 * DAY && picked(a.id!, 7)) {
    const from = (at: number) => new Date(at - DAY).toISOString();
    add(created + (start - created) / 2, {
      ...ids,
      type: 'appointment.rescheduled',
      changes: {
        startDate: { from: from(start), to: a.startDate },
        endDate: { from: from(end), to: a.endDate },
        via: 'client',
      },
    });
  }
  if (cancelled) {
    add(cancelled, {
      ...ids,
      type: 'appointment.cancelled',
      actorUserId: byClient ? null : coachUser,
      changes: byClient ? { via: 'client' } : {},
    });
    return;
  }
  if (a.noShow) {
    // An appointment that ended minutes before the seed is marked by now, not never.
    add(Math.min(end + 30 * MINUTE, nowMs), {
      ...ids,
      type: 'appointment.updated',
      actorUserId: coachUser,
      changes: { noShow: { from: false, to: true } },
    });
  } else if (a.meetingType === 'jitsi') {
    add(end, {
      ...ids,
      type: 'meeting.finished',
      actorUserId: coachUser,
      changes: { role: 'COACH' },
    });
  }
}
