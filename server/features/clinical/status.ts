import { and, desc, eq, ne } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { appointments, appointmentSummaries, clients, patientCards } from '../../db/schema/index';
import type { Principal } from '../../http/auth';
import { reachesRecord, reachOf } from '../../access/policy';
import { notFound } from '../../http/problem';
import { blockersOf } from './content';
import { namesOf } from './documents';

/**
 * The detail pages' view of a client's clinical documents: status, availability
 * and blockers of the patient card and every summary, never content; when review completed
 * one, when and by whom. Not an access-log read,
 * so the appointment and client pages can show it to onboarding managers too.
 */

interface StatusRow {
  id: string;
  appointmentId: string;
  coachId: string;
  status: 'new' | 'sent' | 'completed' | 'canceled';
  blockerCodes: string[];
  signedAt: string | Date | null;
  completedAt: string | Date | null;
  completedById: string | null;
}

const iso = (value: string | Date | null) =>
  value === null ? null : new Date(value).toISOString();

const toStatus = (
  row: StatusRow,
  appointmentStartDate: string | Date | null,
  names: Map<string, string>,
) => {
  const blockers = row.status === 'new' ? blockersOf(row.blockerCodes) : [];
  return {
    id: row.id,
    appointmentId: row.appointmentId,
    appointmentStartDate: iso(appointmentStartDate),
    status: row.status,
    availability: blockers.length ? ('blocker' as const) : ('available' as const),
    blockers,
    signedAt: iso(row.signedAt),
    completedAt: iso(row.completedAt),
    completedByName: row.completedById ? (names.get(row.completedById) ?? null) : null,
  };
};

const COLUMNS = {
  id: appointmentSummaries.id,
  appointmentId: appointmentSummaries.appointmentId,
  coachId: appointmentSummaries.coachId,
  status: appointmentSummaries.status,
  blockerCodes: appointmentSummaries.blockerCodes,
  signedAt: appointmentSummaries.signedAt,
  completedAt: appointmentSummaries.completedAt,
  completedById: appointmentSummaries.completedById,
};

export async function clientClinicalStatus(db: Db, principal: Principal, clientId: string) {
  const [[client], summaries, [card]] = await Promise.all([
    db.select({ coachedById: clients.coachedById }).from(clients).where(eq(clients.id, clientId)),
    db
      .select({ ...COLUMNS, startDate: appointments.startDate })
      .from(appointmentSummaries)
      .leftJoin(appointments, eq(appointments.id, appointmentSummaries.appointmentId))
      .where(eq(appointmentSummaries.clientId, clientId))
      .orderBy(desc(appointments.startDate), desc(appointmentSummaries.createdAt)),
    db
      .select({
        id: patientCards.id,
        appointmentId: patientCards.appointmentId,
        coachId: patientCards.coachId,
        status: patientCards.status,
        blockerCodes: patientCards.blockerCodes,
        signedAt: patientCards.signedAt,
        completedAt: patientCards.completedAt,
        completedById: patientCards.completedById,
        startDate: appointments.startDate,
      })
      .from(patientCards)
      .leftJoin(appointments, eq(appointments.id, patientCards.appointmentId))
      .where(and(eq(patientCards.clientId, clientId), ne(patientCards.status, 'canceled')))
      .orderBy(desc(patientCards.createdAt))
      .limit(1),
  ]);
  // A coach sees a client they coach whole, otherwise only the documents of their appointments.
  let visible = (_row: StatusRow) => true;
  if (reachOf(principal).kind !== 'all') {
    const clientCoachId = client?.coachedById ?? null;
    const coachesClient = reachesRecord(principal, { coachId: null, clientCoachId });
    visible = (row) => reachesRecord(principal, { coachId: row.coachId, clientCoachId });
    const any = coachesClient || summaries.some(visible) || (card !== undefined && visible(card));
    if (!any) throw notFound('client');
  } else if (!client && !card && summaries.length === 0) {
    throw notFound('client');
  }
  const shown = summaries.filter(visible);
  const shownCard = card && visible(card) ? card : null;
  // Who completed them in review, by name (one query, only when anything is completed).
  const names = await namesOf(
    db,
    [...shown, ...(shownCard ? [shownCard] : [])].map((r) => r.completedById),
  );
  return {
    patientCard: shownCard ? toStatus(shownCard, shownCard.startDate, names) : null,
    summaries: shown.map((row) => toStatus(row, row.startDate, names)),
  };
}
