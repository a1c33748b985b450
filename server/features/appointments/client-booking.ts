/**
 * The client's own initial appointment: book, cancel, reschedule, and the release of
 * expired provisional holds. Each write path is one function that runs inside the
 * transaction it is given, so whatever else must happen with the change (notifications,
 * webhooks) is one more call in that same transaction and rolls back with it.
 */
import { Temporal } from '@js-temporal/polyfill';
import { and, eq, gte, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { appointments, clients } from '../../db/schema/index';
import type { Principal } from '../../http/auth';
import type { AppDeps } from '../../http/handler';
import { conflict, notFound } from '../../http/problem';
import { recordEvent, updateRecorded } from '../events/index';
import { enqueueAppointmentNotifications } from '../notifications/index';
import { appointmentData, emitWebhook } from '../webhooks/index';
import { freeCoachesAt, type Calendar, type CoachRef } from '../scheduling/index';
import { instantOf, isoOf, isoOfMs } from '../../time';
import { joiningWindowMs } from '../../../shared/meeting-window';
import { bookRange, insertAppointment } from './booking';
import { appointmentOutcome } from './outcomes';
import { appointmentBasics, selectAppointments } from './repository';
import { inTransaction } from '../../db/transaction';

const POOL: Calendar = { kind: 'initial-meetings' };

const nowOf = (deps: AppDeps) => instantOf(deps.now());

export const noticePeriod = (what: 'booking' | 'change', hours: number) =>
  conflict(
    'notice_period',
    what === 'booking'
      ? `Appointments can be booked at least ${hours} h ahead`
      : `Appointments can be changed or cancelled at most until ${hours} h before the start`,
  );

/** The client record of a signed-in client; 409 not_a_client for accounts without one. */
export async function clientIdOf(db: Db | Tx, principal: Principal): Promise<string> {
  const userId = principal.user?.id;
  const [row] = userId
    ? await db.select({ id: clients.id }).from(clients).where(eq(clients.userId, userId))
    : [];
  if (!row) throw conflict('not_a_client', 'This account has no client record');
  return row.id;
}

/** The client's own initial appointment, or null (so other ids stay unknown: 404). */
export async function findClientAppointment(db: Db | Tx, clientId: string, id: string) {
  const [row] = await selectAppointments(db).where(
    and(
      eq(appointments.id, id),
      eq(appointments.clientId, clientId),
      eq(appointments.appointmentType, 'initial'),
    ),
  );
  return row ?? null;
}

/**
 * The contract's ClientAppointment: never the coach's meeting code. The video room's window
 * comes from the server's configuration, so the client's overview offers "Beitreten" exactly
 * while the room lets them in.
 */
export function toClientAppointment(
  row: Pick<
    NonNullable<Awaited<ReturnType<typeof findClientAppointment>>>,
    'appointment' | 'coachFirstName' | 'coachLastName'
  >,
  config: Pick<AppDeps['config'], 'MEETING_JOIN_EARLY_MINUTES' | 'MEETING_JOIN_LATE_MINUTES'>,
) {
  const a = row.appointment;
  const room = joiningWindowMs(a, {
    early: config.MEETING_JOIN_EARLY_MINUTES,
    late: config.MEETING_JOIN_LATE_MINUTES,
  });
  return {
    ...appointmentBasics(a),
    coach: { id: a.coachId, firstName: row.coachFirstName, lastName: row.coachLastName },
    joinableFrom: isoOfMs(room.fromMs),
    joinableUntil: isoOfMs(room.untilMs),
  };
}

/**
 * Free coaches of the pool at [start, start + duration), fairest first: the one with the
 * fewest upcoming live appointments, ties by id. `prefer` (the current coach of a
 * reschedule) goes first when free; `only` restricts to one coach.
 */
async function candidates(
  tx: Tx,
  deps: AppDeps,
  start: number,
  durationMinutes: number,
  options: { only?: string; prefer?: string; ignore?: string },
): Promise<CoachRef[]> {
  const hours = deps.config.CLIENT_BOOKING_NOTICE_HOURS;
  const notBefore = nowOf(deps).add({ hours }).epochMilliseconds;
  const free = (
    await freeCoachesAt(
      tx,
      POOL,
      start,
      durationMinutes,
      deps.config.SLOT_STEP_MINUTES,
      notBefore,
      deps.config.HOLIDAY_STATE,
      options.ignore,
    )
  ).filter((c) => !options.only || c.id === options.only);
  if (free.length < 2) return free;
  const counts = await tx
    .select({ coachId: appointments.coachId, n: sql<number>`count(*)::int` })
    .from(appointments)
    .where(
      and(
        inArray(
          appointments.coachId,
          free.map((c) => c.id),
        ),
        isNull(appointments.cancelledAt),
        gte(appointments.startDate, deps.now().toISOString()),
      ),
    )
    .groupBy(appointments.coachId);
  const load = new Map(counts.map((c) => [c.coachId, Number(c.n)]));
  return free.sort(
    (a, b) =>
      Number(b.id === options.prefer) - Number(a.id === options.prefer) ||
      (load.get(a.id) ?? 0) - (load.get(b.id) ?? 0) ||
      (a.id < b.id ? -1 : 1),
  );
}

export interface BookInitial {
  clientId: string;
  actor: Principal;
  startDate: string;
  durationMinutes: number;
  coachId?: string;
}

/** 409 when the client, whose row the caller holds, has a live initial appointment already. */
async function assertNoInitialAppointment(tx: Tx, clientId: string) {
  const [existing] = await tx
    .select({ id: appointments.id })
    .from(appointments)
    .where(
      and(
        eq(appointments.clientId, clientId),
        eq(appointments.appointmentType, 'initial'),
        isNull(appointments.cancelledAt),
      ),
    );
  if (existing) {
    throw conflict('initial_appointment_exists', 'The client already has an initial appointment');
  }
}

/** Whether `start` keeps the booking notice (CLIENT_BOOKING_NOTICE_HOURS) from now. */
function assertBookingNotice(deps: AppDeps, start: Temporal.Instant) {
  const hours = deps.config.CLIENT_BOOKING_NOTICE_HOURS;
  if (Temporal.Instant.compare(start, nowOf(deps).add({ hours })) < 0) {
    throw noticePeriod('booking', hours);
  }
}

/** Books the client's initial appointment on a free slot of the initial-meetings calendar. */
export async function bookInitialAppointment(
  tx: Tx,
  deps: AppDeps,
  input: BookInitial,
): Promise<string> {
  const start = Temporal.Instant.from(input.startDate);
  assertBookingNotice(deps, start);
  const list = await candidates(tx, deps, start.epochMilliseconds, input.durationMinutes, {
    only: input.coachId,
  });
  const startDate = isoOf(start);
  const endDate = isoOf(start.add({ minutes: input.durationMinutes }));
  const { id, coachId } = await insertAppointment(
    tx,
    {
      clientId: input.clientId,
      coachId: list.map((c) => c.id),
      startDate,
      endDate,
      appointmentType: 'initial',
      meetingType: 'jitsi',
      isProvisional: false,
      provisionalUntil: null,
      externalMeetingUrl: null,
    },
    // Checked holding the client's row, so two racing bookings cannot both pass it.
    () => assertNoInitialAppointment(tx, input.clientId),
  );
  await recordEvent(tx, {
    type: 'appointment.created',
    entityType: 'appointment',
    entityId: id,
    appointmentId: id,
    clientId: input.clientId,
    coachId,
    actor: input.actor,
    changes: { startDate, endDate, appointmentType: 'initial', via: 'client' },
  });
  await enqueueAppointmentNotifications(tx, deps, { appointmentId: id, change: 'booked' });
  await emitWebhook(
    tx,
    deps.jobs,
    'appointment.created',
    appointmentData({
      id,
      clientId: input.clientId,
      coachId,
      startDate,
      endDate,
      appointmentType: 'initial',
    }),
  );
  return id;
}

type AppointmentRow = typeof appointments.$inferSelect;

/**
 * The appointment `find` reads, locked and read again, when the client may still change it:
 * 404 (`what` not found) without one; 409 when cancelled, started or inside the change notice.
 * Used by the signed-in client and by the meeting-code cancel.
 */
export async function lockChangeable<R extends { appointment: AppointmentRow }>(
  tx: Tx,
  deps: AppDeps,
  what: string,
  find: () => Promise<R | null>,
): Promise<R> {
  const found = await find();
  if (!found) throw notFound(what);
  await tx
    .select({ id: appointments.id })
    .from(appointments)
    .where(eq(appointments.id, found.appointment.id))
    .for('update');
  const row = (await find())!;
  const a = row.appointment;
  if (a.cancelledAt)
    throw conflict('appointment_cancelled', 'The appointment is cancelled already');
  const now = nowOf(deps);
  const start = Temporal.Instant.from(a.startDate);
  if (Temporal.Instant.compare(start, now) <= 0) {
    throw conflict('appointment_started', 'The appointment has started already');
  }
  const hours = deps.config.CLIENT_CHANGE_NOTICE_HOURS;
  if (Temporal.Instant.compare(start, now.add({ hours })) < 0) throw noticePeriod('change', hours);
  return row;
}

/** The client's live, not yet started initial appointment, locked; 404/409 otherwise. */
async function changeable(tx: Tx, deps: AppDeps, clientId: string, id: string) {
  const row = await lockChangeable(tx, deps, 'appointment', () =>
    findClientAppointment(tx, clientId, id),
  );
  return row.appointment;
}

/**
 * Cancels an appointment `lockChangeable` returned, on the client's side (`via` the signed-in
 * client or the meeting code): records the event and queues the notifications. Returns the
 * cancellation time.
 */
export async function cancelForClient(
  tx: Tx,
  deps: AppDeps,
  a: AppointmentRow,
  actor: Principal,
  via: 'client' | 'meeting_code',
): Promise<string> {
  const cancelledAt = deps.now().toISOString();
  await updateRecorded(
    tx,
    appointments,
    a.id,
    { cancelledAt },
    {
      type: 'appointment.cancelled',
      entityType: 'appointment',
      appointmentId: a.id,
      clientId: a.clientId,
      coachId: a.coachId,
      actor,
      changes: { via },
    },
  );
  await enqueueAppointmentNotifications(tx, deps, { appointmentId: a.id, change: 'cancelled' });
  await emitWebhook(tx, deps.jobs, 'appointment.cancelled', appointmentData(a));
  await deps.events.announce(tx, appointmentOutcome, {
    appointmentId: a.id,
    change: 'cancelled',
    at: new Date(cancelledAt),
  });
  return cancelledAt;
}

export interface ChangeInitial {
  clientId: string;
  actor: Principal;
  appointmentId: string;
}

/** The client cancels their initial appointment (not after the change notice). */
export async function cancelInitialAppointment(tx: Tx, deps: AppDeps, input: ChangeInitial) {
  const a = await changeable(tx, deps, input.clientId, input.appointmentId);
  await cancelForClient(tx, deps, a, input.actor, 'client');
}

/**
 * Moves the client's initial appointment to a free slot of the pool, keeping its length,
 * its id and its meeting codes. The current coach keeps it when free at the new time.
 * One transaction: the new time is taken and the old one released together, or nothing.
 */
export async function rescheduleInitialAppointment(
  tx: Tx,
  deps: AppDeps,
  input: ChangeInitial & { startDate: string; coachId?: string },
) {
  const found = await findClientAppointment(tx, input.clientId, input.appointmentId);
  if (!found) throw notFound('appointment');
  const before = found.appointment;
  const start = Temporal.Instant.from(input.startDate);
  const length = Temporal.Instant.from(before.startDate).until(
    Temporal.Instant.from(before.endDate),
  );
  const list = await candidates(tx, deps, start.epochMilliseconds, length.total('minutes'), {
    only: input.coachId,
    prefer: before.coachId,
    ignore: before.id,
  });
  // The appointment's row first, then the calendar (./booking.ts).
  const a = await changeable(tx, deps, input.clientId, input.appointmentId);
  assertBookingNotice(deps, start);
  const startDate = isoOf(start);
  const endDate = isoOf(start.add(length));
  const range = { coachIds: list.map((c) => c.id), startDate, endDate, except: a.id };
  const coachId = await bookRange(tx, range, async (id) => {
    await tx
      .update(appointments)
      .set({ startDate, endDate, coachId: id, updatedAt: sql`now()` })
      .where(eq(appointments.id, a.id));
    return id;
  });
  await recordEvent(tx, {
    type: 'appointment.rescheduled',
    entityType: 'appointment',
    entityId: a.id,
    appointmentId: a.id,
    clientId: a.clientId,
    coachId,
    actor: input.actor,
    changes: {
      startDate: { from: a.startDate, to: startDate },
      endDate: { from: a.endDate, to: endDate },
      ...(coachId === a.coachId ? {} : { coachId: { from: a.coachId, to: coachId } }),
      via: 'client',
    },
  });
  await enqueueAppointmentNotifications(tx, deps, {
    appointmentId: a.id,
    change: 'rescheduled',
    previous: { start: a.startDate, end: a.endDate, coachId: a.coachId },
  });
  await emitWebhook(
    tx,
    deps.jobs,
    'appointment.rescheduled',
    appointmentData({ ...a, coachId, startDate, endDate }),
  );
}

/**
 * Releases provisional appointments whose hold has expired (provisionalUntil ≤ now): they
 * are cancelled, so their slots are free again. Safe to run on several instances at once
 * (rows another run holds are skipped). Returns the released appointment ids.
 */
export async function releaseExpiredHolds(db: Db, now: Date, batch = 500): Promise<string[]> {
  const nowIso = now.toISOString();
  return inTransaction(db, async (tx) => {
    const expired = await tx
      .select({
        id: appointments.id,
        clientId: appointments.clientId,
        coachId: appointments.coachId,
      })
      .from(appointments)
      .where(
        and(
          eq(appointments.isProvisional, true),
          isNull(appointments.cancelledAt),
          lte(appointments.provisionalUntil, nowIso),
        ),
      )
      .limit(batch)
      .for('update', { skipLocked: true });
    if (expired.length === 0) return [];
    await tx
      .update(appointments)
      .set({ cancelledAt: nowIso, updatedAt: sql`now()` })
      .where(
        inArray(
          appointments.id,
          expired.map((e) => e.id),
        ),
      );
    for (const e of expired) {
      await recordEvent(tx, {
        type: 'appointment.hold_expired',
        entityType: 'appointment',
        entityId: e.id,
        appointmentId: e.id,
        clientId: e.clientId,
        coachId: e.coachId,
        source: 'system',
        changes: { cancelledAt: nowIso },
      });
    }
    return expired.map((e) => e.id);
  });
}
