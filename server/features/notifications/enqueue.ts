/**
 * Appointment messages as jobs. Everything here runs inside the transaction that changes the
 * appointment: the messages are written `queued` to `communications` and a delivery job is
 * queued for each (pg-boss, same database, same transaction), so a change that rolls back
 * sends nothing and a committed one is sent even if the process dies right after.
 */
import { eq, sql } from 'drizzle-orm';
import { practiceName, type PracticeConfig } from '../practice/index';
import type { Config } from '../../config';
import type { Db, Tx } from '../../db/client';
import {
  appointmentCalendarSequences,
  appointments,
  clients,
  coaches,
  communications,
} from '../../db/schema/index';
import type { MailMessage } from '../../adapters/mail/mailer';
import type { JobQueue } from '../../jobs/queue';
import { compareInstants, instant, instantOf } from '../../time';
import { calendarWriteWanted, queueAppointmentWrite } from '../calendars/index';
import { addressOf, buildCalendar } from './ics';
import {
  APPOINTMENT_TYPE_NAMES,
  clientMail,
  clientSms,
  coachMail,
  templateKey,
  type MessageFacts,
  type MessageKind,
} from './templates';

export const DELIVER_JOB = 'deliver-communication';
export const REMINDER_JOB = 'appointment-reminder';
/** Sign-in mails of the authentication provider (jobs.ts: authMailJob). */
export const AUTH_MAIL_JOB = 'deliver-auth-mail';

export type AppointmentChange = 'booked' | 'rescheduled' | 'cancelled';

/** What the notification service needs of the app (a handler passes its `deps`). */
export interface NotifyDeps {
  /** PRACTICE_*: the defaults of the practice settings, which sign and send the messages. */
  config: Pick<Config, 'PUBLIC_URL' | 'MAIL_FROM'> & PracticeConfig;
  jobs: JobQueue;
}

export interface DeliverJobData {
  communicationId: string;
  /** ISO instant after which the message is worthless (a sign-in code's expiry): not sent then. */
  notAfter?: string;
}

export interface ReminderJobData {
  appointmentId: string;
  /** The appointment's SEQUENCE when the reminder was planned: a reschedule outdates it. */
  sequence: number;
  kind: 'reminder_24h' | 'reminder_1h';
}

/**
 * Lead times as exact durations before the start: the 24-hour reminder of an appointment on
 * the Sunday of the October change at 10:00 goes out on Saturday at 11:00 Berlin time,
 * 24 hours before, not at the same wall time on the day before.
 */
export const REMINDERS = [
  { kind: 'reminder_24h', lead: { hours: 24 } },
  { kind: 'reminder_1h', lead: { hours: 1 } },
] as const;

type Row = NonNullable<Awaited<ReturnType<typeof loadAppointment>>>;

export async function loadAppointment(db: Db | Tx, appointmentId: string) {
  const [row] = await db
    .select({
      appointment: appointments,
      client: {
        id: clients.id,
        firstName: clients.firstName,
        lastName: clients.lastName,
        email: clients.email,
        telephone: clients.telephone,
        notifyViaSms: clients.notifyViaSms,
      },
      coach: {
        firstName: coaches.firstName,
        lastName: coaches.lastName,
        email: coaches.email,
      },
      // Read here so that a coach without a receiving calendar costs no query of its own.
      calendarWrite: calendarWriteWanted(appointments.id, appointments.coachId),
    })
    .from(appointments)
    .innerJoin(clients, eq(clients.id, appointments.clientId))
    .innerJoin(coaches, eq(coaches.id, appointments.coachId))
    .where(eq(appointments.id, appointmentId));
  return row ?? null;
}

async function coachContact(db: Db | Tx, coachId: string): Promise<CoachContact | undefined> {
  const [row] = await db
    .select({ firstName: coaches.firstName, lastName: coaches.lastName, email: coaches.email })
    .from(coaches)
    .where(eq(coaches.id, coachId));
  return row;
}

export async function currentSequence(db: Db | Tx, appointmentId: string): Promise<number> {
  const [row] = await db
    .select({ sequence: appointmentCalendarSequences.sequence })
    .from(appointmentCalendarSequences)
    .where(eq(appointmentCalendarSequences.appointmentId, appointmentId));
  return row?.sequence ?? 0;
}

async function raiseSequence(tx: Db | Tx, appointmentId: string): Promise<number> {
  const [row] = await tx
    .insert(appointmentCalendarSequences)
    .values({ appointmentId, sequence: 1 })
    .onConflictDoUpdate({
      target: appointmentCalendarSequences.appointmentId,
      set: { sequence: sql`${appointmentCalendarSequences.sequence} + 1`, updatedAt: sql`now()` },
    })
    .returning({ sequence: appointmentCalendarSequences.sequence });
  return row!.sequence;
}

/** The client's link to the meeting page: meetingBaseUrl + "/" + the client meeting code. */
export function defaultMeetingBaseUrl(config: Pick<Config, 'PUBLIC_URL'>) {
  return `${config.PUBLIC_URL.replace(/\/+$/, '')}/meeting`;
}

function links(config: NotifyDeps['config'], a: Row['appointment'], meetingBaseUrl?: string) {
  const base = (meetingBaseUrl ?? defaultMeetingBaseUrl(config)).replace(/\/+$/, '');
  return {
    client: `${base}/${a.meetingCodeClient}`,
    coach: `${config.PUBLIC_URL.replace(/\/+$/, '')}/coach/meeting/${a.meetingCodeCoach}`,
    // The client's cancel page takes the meeting code and works without signing in.
    clientCancel: `${config.PUBLIC_URL.replace(/\/+$/, '')}/client-signup/cancel-appointment/${a.meetingCodeClient}`,
    // Moving needs the client's sign-in: the page asks for it and comes back.
    clientReschedule: `${config.PUBLIC_URL.replace(/\/+$/, '')}/client-signup/reschedule-appointment/${a.id}`,
  };
}

/** The appointment as it was before a reschedule. */
export interface Previous {
  start: string;
  end: string;
  coachId: string;
}

interface CoachContact {
  firstName: string;
  lastName: string;
  email: string;
}

interface Plan {
  kind: MessageKind;
  sequence: number;
  meetingBaseUrl?: string | undefined;
  previous?: Previous | undefined;
  /**
   * The coach who held the appointment before a reschedule handed it to another: they get the
   * calendar cancellation of their copy, the new coach the invitation instead of an update.
   */
  previousCoach?: CoachContact | undefined;
  /** Reminders go to the client only. */
  coachToo: boolean;
}

type Attendee = { name: string; email: string };

/** Writes the messages of one change as `queued` communications and queues their delivery. */
export async function queueMessages(tx: Db | Tx, deps: NotifyDeps, row: Row, plan: Plan) {
  const { config } = deps;
  const practice = await practiceName(tx, config);
  const a = row.appointment;
  const link = links(config, a, plan.meetingBaseUrl);
  const clientName = `${row.client.firstName} ${row.client.lastName}`;
  const coachName = `${row.coach.firstName} ${row.coach.lastName}`;
  const previousCoach = plan.previousCoach;
  const previousCoachName = previousCoach
    ? `${previousCoach.firstName} ${previousCoach.lastName}`
    : null;
  const facts = (
    recipientLink: string,
    meetingCode: string,
    cancelLink: string | null,
  ): MessageFacts => ({
    practice,
    typeName: APPOINTMENT_TYPE_NAMES[a.appointmentType] ?? 'Termin',
    start: a.startDate,
    end: a.endDate,
    previousStart: plan.previous?.start,
    clientName,
    coachName,
    previousCoachName,
    link: recipientLink,
    meetingCode,
    cancelLink,
    externalMeetingUrl: a.externalMeetingUrl,
  });
  const clientFacts = {
    ...facts(link.client, a.meetingCodeClient, link.clientCancel),
    rescheduleLink: plan.kind === 'cancelled' ? null : link.clientReschedule,
  };
  const coachFacts = facts(link.coach, a.meetingCodeCoach, null);
  const withCalendar = plan.kind !== 'reminder_24h' && plan.kind !== 'reminder_1h';
  const method = plan.kind === 'cancelled' ? 'CANCEL' : 'REQUEST';
  const clientAttendee = row.client.email ? [{ name: clientName, email: row.client.email }] : [];
  const calendar = (
    calendarMethod: 'REQUEST' | 'CANCEL',
    summary: string,
    f: MessageFacts,
    attendees: Attendee[],
  ) =>
    buildCalendar({
      method: calendarMethod,
      practice,
      organizerEmail: addressOf(config.MAIL_FROM),
      uidDomain: new URL(config.PUBLIC_URL).hostname,
      events: [
        {
          appointmentId: a.id,
          sequence: plan.sequence,
          start: f.start,
          end: f.end,
          summary,
          description: [
            `Zum Videotermin: ${f.link}`,
            `Meeting-Code: ${f.meetingCode}`,
            ...(f.externalMeetingUrl ? [`Link zum Termin: ${f.externalMeetingUrl}`] : []),
          ].join('\n'),
          link: f.link,
          attendees,
        },
      ],
    });
  const attendees = [...clientAttendee, { name: coachName, email: row.coach.email }];
  const calendarFor = (summary: string, f: MessageFacts) =>
    withCalendar ? calendar(method, summary, f, attendees) : null;

  const base = { appointmentId: a.id, clientId: row.client.id, status: 'queued' as const };
  const messages: (typeof communications.$inferInsert)[] = [];
  if (row.client.email) {
    const mail = clientMail(plan.kind, clientFacts);
    messages.push({
      ...base,
      template: templateKey(plan.kind),
      channel: 'email',
      recipient: row.client.email,
      subject: mail.subject,
      body: mail.text,
      calendar: calendarFor(`${clientFacts.typeName} mit ${coachName}`, clientFacts),
      calendarMethod: withCalendar ? method : null,
    });
  }
  if (row.client.notifyViaSms && row.client.telephone?.trim()) {
    messages.push({
      ...base,
      template: templateKey(plan.kind),
      channel: 'sms',
      recipient: row.client.telephone.trim(),
      subject: null,
      body: clientSms(plan.kind, clientFacts),
    });
  }
  const coachSummary = `${coachFacts.typeName}: ${clientName}`;
  if (plan.coachToo && previousCoach && plan.previous) {
    // The new coach never had this appointment: an invitation, not an update.
    const takenOver = coachMail('taken_over', coachFacts);
    messages.push({
      ...base,
      template: templateKey('taken_over'),
      channel: 'email',
      recipient: row.coach.email,
      subject: takenOver.subject,
      body: takenOver.text,
      calendar: calendar('REQUEST', coachSummary, coachFacts, attendees),
      calendarMethod: 'REQUEST',
    });
    // The previous coach's copy (the old time) leaves their calendar.
    const theirs = {
      ...coachFacts,
      start: plan.previous.start,
      end: plan.previous.end,
      coachName: previousCoachName!,
      previousCoachName: coachName,
    };
    const handedOver = coachMail('handed_over', theirs);
    messages.push({
      ...base,
      template: templateKey('handed_over'),
      channel: 'email',
      recipient: previousCoach.email,
      subject: handedOver.subject,
      body: handedOver.text,
      calendar: calendar('CANCEL', coachSummary, theirs, [
        { name: previousCoachName!, email: previousCoach.email },
      ]),
      calendarMethod: 'CANCEL',
    });
  } else if (plan.coachToo) {
    const mail = coachMail(plan.kind, coachFacts);
    messages.push({
      ...base,
      template: templateKey(plan.kind),
      channel: 'email',
      recipient: row.coach.email,
      subject: mail.subject,
      body: mail.text,
      calendar: calendarFor(coachSummary, coachFacts),
      calendarMethod: withCalendar ? method : null,
    });
  }
  if (messages.length === 0) return 0;
  const inserted = await tx
    .insert(communications)
    .values(messages)
    .returning({ id: communications.id });
  for (const { id } of inserted) {
    await deps.jobs.send<DeliverJobData>(tx, DELIVER_JOB, { communicationId: id });
  }
  return inserted.length;
}

/**
 * Queues the messages about a change of an appointment, inside the caller's transaction:
 * invitations (iCalendar METHOD:REQUEST) on booking, updated invitations with a raised
 * SEQUENCE on a reschedule, cancellations (METHOD:CANCEL) on a cancel, to the client (e-mail,
 * and SMS when notifyViaSms is set) and the coach; and the reminders 24 h and 1 h before the
 * start as jobs that wait until then. A reschedule or cancel withdraws waiting reminders.
 * A reschedule to another coach cancels the previous coach's copy and invites the new coach.
 * Provisional appointments (slot holds) send nothing until they are confirmed.
 */
export async function enqueueAppointmentNotifications(
  tx: Db | Tx,
  deps: NotifyDeps,
  input: { appointmentId: string; change: AppointmentChange; previous?: Previous },
): Promise<void> {
  const row = await loadAppointment(tx, input.appointmentId);
  if (!row) return;
  // The coach's own calendar gets the same change (its job decides what that means for a hold).
  await queueAppointmentWrite(tx, deps.jobs, input.appointmentId, row.calendarWrite);
  const { change } = input;
  if (change !== 'booked') {
    await deps.jobs.cancelWaiting(tx, REMINDER_JOB, { appointmentId: input.appointmentId });
  }
  if (row.appointment.isProvisional) return;
  if (change === 'cancelled' && !row.appointment.cancelledAt) return;

  let sequence: number;
  if (change === 'booked') {
    await tx
      .insert(appointmentCalendarSequences)
      .values({ appointmentId: input.appointmentId, sequence: 0 })
      .onConflictDoNothing();
    sequence = await currentSequence(tx, input.appointmentId);
  } else {
    sequence = await raiseSequence(tx, input.appointmentId);
  }
  const { previous } = input;
  const previousCoach =
    change === 'rescheduled' && previous && previous.coachId !== row.appointment.coachId
      ? await coachContact(tx, previous.coachId)
      : undefined;
  await queueMessages(tx, deps, row, {
    kind: change,
    sequence,
    previous: change === 'rescheduled' ? previous : undefined,
    previousCoach,
    coachToo: true,
  });
  if (change === 'cancelled') return;

  const now = instantOf(deps.jobs.now());
  const start = instant(row.appointment.startDate);
  for (const reminder of REMINDERS) {
    const at = start.subtract(reminder.lead);
    if (compareInstants(at, now) <= 0) continue;
    await deps.jobs.send<ReminderJobData>(
      tx,
      REMINDER_JOB,
      { appointmentId: input.appointmentId, sequence, kind: reminder.kind },
      { startAfter: new Date(at.epochMilliseconds) },
    );
  }
}

/** Sends the current invitation again (same SEQUENCE), with the caller's meeting link. */
export async function enqueueInvitations(
  tx: Db | Tx,
  deps: NotifyDeps,
  input: { appointmentId: string; meetingBaseUrl?: string },
): Promise<number> {
  const row = await loadAppointment(tx, input.appointmentId);
  if (!row) return 0;
  return queueMessages(tx, deps, row, {
    kind: 'invitation',
    sequence: await currentSequence(tx, input.appointmentId),
    meetingBaseUrl: input.meetingBaseUrl,
    coachToo: true,
  });
}

/** Mail that is stored and sent by the job queue (the authentication provider's mails). */
export interface MailOutbox {
  /**
   * Stores the mail as a `queued` communication and queues its delivery, in the caller's
   * transaction: it exists, and goes out, only if that transaction commits.
   */
  queue(tx: Db | Tx, mail: MailMessage, options?: { notAfter?: Date }): Promise<string>;
}

/** The outbox of the sign-in mails, on the given job queue (AUTH_MAIL_JOB). */
export function mailOutbox(jobs: () => JobQueue): MailOutbox {
  return {
    async queue(tx, mail, options = {}) {
      const [row] = await tx
        .insert(communications)
        .values({
          channel: 'email',
          template: mail.template,
          recipient: mail.to,
          subject: mail.subject,
          body: mail.text,
          status: 'queued',
        })
        .returning({ id: communications.id });
      await jobs().send<DeliverJobData>(tx, AUTH_MAIL_JOB, {
        communicationId: row!.id,
        ...(options.notAfter ? { notAfter: options.notAfter.toISOString() } : {}),
      });
      return row!.id;
    },
  };
}
