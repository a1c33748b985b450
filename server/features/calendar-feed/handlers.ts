import { createHash, randomBytes } from 'node:crypto';
import { practiceName, type PracticeConfig } from '../practice/index';
import { and, asc, eq, gte, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { appointments, calendarFeedTokens, clients, coaches } from '../../db/schema/index';
import type { Principal } from '../../http/auth';
import { reachesCoach } from '../../access/policy';
import { defineHandlers } from '../../http/handler';
import { notFound } from '../../http/problem';
import { instantOf, isoOf } from '../../time';
import { ZONE } from '../../../shared/time';
import { recordEvent } from '../events/index';
import { addressOf, APPOINTMENT_TYPE_NAMES, buildCalendar } from '../notifications/index';
import { inTransaction } from '../../db/transaction';
import { selectAppointmentEvents } from '../calendars/index';

/**
 * The feed shows live appointments that ended at most this many Berlin calendar days ago
 * (calendar apps keep the past): the same wall time that many days back, so a change of
 * summer time in between moves the start by no hour.
 */
const FEED_PAST_DAYS = 30;

const feedStart = (now: Date) =>
  isoOf(instantOf(now).toZonedDateTimeISO(ZONE).subtract({ days: FEED_PAST_DAYS }).toInstant());

const FEED_LIMIT = 2000;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Coaches reach only their own feed; another coach's is out of reach (404, as records are). */
function assertOwnFeed(principal: Principal, coachId: string) {
  if (!reachesCoach(principal, coachId)) throw notFound('coach');
}

async function assertCoach(db: Db, coachId: string) {
  const [row] = await db.select({ id: coaches.id }).from(coaches).where(eq(coaches.id, coachId));
  if (!row) throw notFound('coach');
}

/**
 * The coach's live appointments as iCalendar (no METHOD: a published feed). Events carry
 * the same UID and SEQUENCE as the invitations, so calendar apps do not show doubles.
 * Client names are shortened to first name and last initial: the feed's address is a
 * bearer secret that may end up in a calendar service's hands.
 */
async function feedOf(
  db: Db,
  config: { PUBLIC_URL: string; MAIL_FROM: string } & PracticeConfig,
  coachId: string,
  now: Date,
) {
  const [coach] = await db
    .select({ firstName: coaches.firstName, lastName: coaches.lastName })
    .from(coaches)
    .where(eq(coaches.id, coachId));
  const rows = await selectAppointmentEvents(db, {
    id: appointments.id,
    startDate: appointments.startDate,
    endDate: appointments.endDate,
    appointmentType: appointments.appointmentType,
    isProvisional: appointments.isProvisional,
    meetingCodeCoach: appointments.meetingCodeCoach,
    clientFirstName: clients.firstName,
    clientLastName: clients.lastName,
  })
    .where(
      and(
        eq(appointments.coachId, coachId),
        isNull(appointments.cancelledAt),
        gte(appointments.endDate, feedStart(now)),
      ),
    )
    .orderBy(asc(appointments.startDate))
    .limit(FEED_LIMIT);
  const base = config.PUBLIC_URL.replace(/\/+$/, '');
  const practice = await practiceName(db, config);
  return buildCalendar({
    method: null,
    practice,
    organizerEmail: addressOf(config.MAIL_FROM),
    uidDomain: new URL(config.PUBLIC_URL).hostname,
    name: `${practice}: ${coach ? `${coach.firstName} ${coach.lastName}` : 'Termine'}`,
    events: rows.map((r) => {
      const link = `${base}/coach/meeting/${r.meetingCodeCoach}`;
      const who = `${r.clientFirstName} ${r.clientLastName.slice(0, 1)}.`;
      const type = APPOINTMENT_TYPE_NAMES[r.appointmentType] ?? 'Termin';
      return {
        appointmentId: r.id,
        sequence: r.sequence ?? 0,
        start: r.startDate,
        end: r.endDate,
        summary: `${type}: ${who}${r.isProvisional ? ' (vorläufig)' : ''}`,
        description: `Zum Videotermin: ${link}`,
        link,
      };
    }),
  });
}

export const calendarFeedHandlers = defineHandlers({
  async getCalendarFeed({ params, principal, deps }) {
    assertOwnFeed(principal, params.coachId);
    await assertCoach(deps.db, params.coachId);
    const [row] = await deps.db
      .select({ createdAt: calendarFeedTokens.createdAt })
      .from(calendarFeedTokens)
      .where(eq(calendarFeedTokens.coachId, params.coachId));
    return { active: !!row, createdAt: row?.createdAt ?? null };
  },

  async createCalendarFeed({ params, principal, deps, reply }) {
    assertOwnFeed(principal, params.coachId);
    await assertCoach(deps.db, params.coachId);
    // 256 bits: the address is the only credential of the feed.
    const token = randomBytes(32).toString('base64url');
    const createdAt = deps.now().toISOString();
    await inTransaction(deps.db, async (tx) => {
      await tx
        .insert(calendarFeedTokens)
        .values({ coachId: params.coachId, tokenHash: hashToken(token), createdAt })
        .onConflictDoUpdate({
          target: calendarFeedTokens.coachId,
          set: { tokenHash: hashToken(token), createdAt },
        });
      await recordEvent(tx, {
        type: 'calendar_feed.created',
        entityType: 'coach',
        entityId: params.coachId,
        coachId: params.coachId,
        actor: principal,
        important: false,
      });
    });
    const url = `${deps.config.PUBLIC_URL.replace(/\/+$/, '')}/api/calendar-feed/${token}`;
    reply.code(201);
    return { url, webcalUrl: url.replace(/^https?:/, 'webcal:'), createdAt };
  },

  async revokeCalendarFeed({ params, principal, deps }) {
    assertOwnFeed(principal, params.coachId);
    await assertCoach(deps.db, params.coachId);
    await inTransaction(deps.db, async (tx) => {
      const removed = await tx
        .delete(calendarFeedTokens)
        .where(eq(calendarFeedTokens.coachId, params.coachId))
        .returning({ coachId: calendarFeedTokens.coachId });
      if (removed.length > 0) {
        await recordEvent(tx, {
          type: 'calendar_feed.revoked',
          entityType: 'coach',
          entityId: params.coachId,
          coachId: params.coachId,
          actor: principal,
          important: false,
        });
      }
    });
  },

  async getCalendarFeedByToken({ params, deps, request, reply }) {
    await deps.rateLimits.calendarFeed.consume(request.ip);
    const [feed] = await deps.db
      .select({ coachId: calendarFeedTokens.coachId })
      .from(calendarFeedTokens)
      .where(eq(calendarFeedTokens.tokenHash, hashToken(params.token)));
    if (!feed) throw notFound('calendar feed');
    const body = await feedOf(deps.db, deps.config, feed.coachId, deps.now());
    reply
      .type('text/calendar; charset=utf-8')
      .header('cache-control', 'private, max-age=300')
      .header('content-disposition', 'inline; filename="termine.ics"');
    return body as never;
  },
});
