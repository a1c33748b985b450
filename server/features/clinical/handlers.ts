import { and, desc, eq, ne } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import type { Db, Tx } from '../../db/client';
import {
  appointments,
  appointmentSummaries,
  clients,
  patientCards,
  type DocumentType,
} from '../../db/schema/index';
import type { Principal } from '../../http/auth';
import { defineHandlers, type AppDeps } from '../../http/handler';
import { conflict, notFound } from '../../http/problem';
import { inTransaction } from '../appointments/index';
import { recordEvent } from '../events/index';
import { emitWebhook, summarySignedData } from '../webhooks/index';
import {
  checkSummaryContent,
  patientCardBlockers,
  summaryBlockers,
  type PatientCardContent,
  type SummaryContent,
} from './content';
import {
  addReviewComment,
  amendDocument,
  canReadContent,
  checkIfMatch,
  logRead,
  notFoundDoc,
  setEtag,
  tableOf,
  toDocument,
  updateDocument,
  type DocRow,
} from './documents';
import { clientClinicalStatus } from './status';

const summaryRules = (content: Record<string, unknown>) =>
  summaryBlockers(content as SummaryContent);
const cardRules = (content: Record<string, unknown>) =>
  patientCardBlockers(content as PatientCardContent);

/**
 * The appointment a new document belongs to: in the caller's reach (else 404) and held
 * (started, not cancelled, not a no-show; else 409).
 */
async function heldAppointment(tx: Tx, principal: Principal, appointmentId: string, now: Date) {
  const [row] = await tx
    .select({ appointment: appointments, coachedById: clients.coachedById })
    .from(appointments)
    .innerJoin(clients, eq(clients.id, appointments.clientId))
    .where(eq(appointments.id, appointmentId));
  if (!row) throw notFound('appointment');
  const coachId = principal.user?.coachId;
  if (
    principal.role === 'COACH' &&
    (!coachId || (row.appointment.coachId !== coachId && row.coachedById !== coachId))
  ) {
    throw notFound('appointment');
  }
  const a = row.appointment;
  if (a.cancelledAt || a.noShow || a.isProvisional || new Date(a.startDate) > now) {
    throw conflict(
      'appointment_not_held',
      'Only a held appointment (started, not cancelled, not a no-show) gets clinical documents',
    );
  }
  return a;
}

/** A document by a key, locked for a write when asked; 404 when missing or out of reach. */
async function readable(
  db: Db | Tx,
  principal: Principal,
  type: DocumentType,
  where: ReturnType<typeof eq>,
  lock = false,
) {
  const table = tableOf(type);
  const query = db.select().from(table).where(where).orderBy(desc(table.createdAt)).limit(1);
  const [row] = (lock ? await query.for('update') : await query) as DocRow[];
  if (!row || !(await canReadContent(db, principal, row))) throw notFoundDoc(type);
  return row;
}

/** A signed summary is a business event and an outgoing webhook (ids and time, no content). */
async function announceSigned(tx: Tx, deps: AppDeps, principal: Principal, row: DocRow) {
  await recordEvent(tx, {
    type: 'summary.signed',
    entityType: 'appointment_summary',
    entityId: row.id,
    actor: principal,
    appointmentId: row.appointmentId,
    clientId: row.clientId,
    coachId: row.coachId,
    source: 'business',
  });
  await emitWebhook(tx, deps.jobs, 'summary.signed', summarySignedData(row));
}

const summaryOf = (appointmentId: string) => eq(appointmentSummaries.appointmentId, appointmentId);
const cardById = (patientCardId: string) => eq(patientCards.id, patientCardId);
const AMEND_SUMMARY = 'POST /appointment/{appointmentId}/summary/amendments';
const AMEND_CARD = 'POST /patient-card/{patientCardId}/amendments';

/** What appends to a signed document: an amendment or a review comment. */
type Append<I> = (
  tx: Tx,
  principal: Principal,
  type: DocumentType,
  row: DocRow,
  input: I,
  now: Date,
) => Promise<void>;
type AppendContext<I> = { principal: Principal; deps: AppDeps; reply: FastifyReply; body: I };

/**
 * Appends the request body to a signed document (locked in one transaction) and answers 201 with
 * the document. `logAsRead`: the answer counts as a content read (a reviewer's comment); the
 * writer's own amendment does not (decisions: access log).
 */
async function appendToDocument<I>(
  { principal, deps, reply, body }: AppendContext<I>,
  type: DocumentType,
  where: ReturnType<typeof eq>,
  append: Append<I>,
  { logAsRead = false } = {},
) {
  const row = await inTransaction(deps.db, async (tx) => {
    const doc = await readable(tx, principal, type, where, true);
    await append(tx, principal, type, doc, body, deps.now());
    return doc;
  });
  if (logAsRead) await logRead(deps.db, principal, type, row);
  reply.code(201);
  return toDocument(deps.db, type, row);
}

/** Summaries and patient cards: content for the client's coach, ADMIN and SUPERADMIN. */
export const documentHandlers = defineHandlers({
  getClientClinicalStatus: ({ params, principal, deps }) =>
    clientClinicalStatus(deps.db, principal, params.clientId),

  async createAppointmentSummary({ params, body, principal, deps, reply }) {
    checkSummaryContent(body.content);
    const row = await inTransaction(deps.db, async (tx) => {
      const appointment = await heldAppointment(tx, principal, params.appointmentId, deps.now());
      const [created] = await tx
        .insert(appointmentSummaries)
        .values({
          appointmentId: appointment.id,
          clientId: appointment.clientId,
          coachId: appointment.coachId,
          content: body.content,
          blockerCodes: summaryBlockers(body.content),
          authorId: principal.user?.id ?? null,
        })
        .onConflictDoNothing()
        .returning();
      if (!created) throw conflict('summary_exists', 'The appointment already has a summary');
      return created;
    });
    reply.code(201);
    setEtag(reply, row);
    return toDocument(deps.db, 'summary', row);
  },

  async getAppointmentSummary({ params, principal, deps, reply }) {
    const row = await readable(deps.db, principal, 'summary', summaryOf(params.appointmentId));
    await logRead(deps.db, principal, 'summary', row);
    setEtag(reply, row);
    return toDocument(deps.db, 'summary', row);
  },

  async updateAppointmentSummary({ params, body, principal, deps, request, reply }) {
    if (body.content) checkSummaryContent(body.content);
    const row = await inTransaction(deps.db, async (tx) => {
      const before = await readable(
        tx,
        principal,
        'summary',
        summaryOf(params.appointmentId),
        true,
      );
      checkIfMatch(request, before);
      const after = await updateDocument(
        tx,
        principal,
        'summary',
        before,
        body,
        summaryRules,
        AMEND_SUMMARY,
        deps.now(),
      );
      if (after.status === 'sent') await announceSigned(tx, deps, principal, after);
      return after;
    });
    setEtag(reply, row);
    return toDocument(deps.db, 'summary', row);
  },

  amendAppointmentSummary: (ctx) =>
    appendToDocument(ctx, 'summary', summaryOf(ctx.params.appointmentId), amendDocument),

  addSummaryReviewComment: (ctx) =>
    appendToDocument(ctx, 'summary', summaryOf(ctx.params.appointmentId), addReviewComment, {
      logAsRead: true,
    }),

  async createPatientCard({ params, body, principal, deps, reply }) {
    const content = body?.content ?? {};
    const row = await inTransaction(deps.db, async (tx) => {
      const appointment = await heldAppointment(tx, principal, params.appointmentId, deps.now());
      const [created] = await tx
        .insert(patientCards)
        .values({
          clientId: appointment.clientId,
          appointmentId: appointment.id,
          coachId: appointment.coachId,
          content,
          blockerCodes: patientCardBlockers(content),
          authorId: principal.user?.id ?? null,
        })
        .onConflictDoNothing()
        .returning();
      if (!created) throw conflict('patient_card_exists', 'The client already has a patient card');
      return created;
    });
    reply.code(201);
    setEtag(reply, row);
    return toDocument(deps.db, 'patient_card', row);
  },

  async getClientPatientCard({ params, principal, deps, reply }) {
    const live = and(
      eq(patientCards.clientId, params.clientId),
      ne(patientCards.status, 'canceled'),
    )!;
    let row: DocRow;
    if (principal.role === 'NONE') {
      // A client reads their own card once it is signed.
      const [own] = await deps.db
        .select({ card: patientCards })
        .from(patientCards)
        .innerJoin(clients, eq(clients.id, patientCards.clientId))
        .where(
          and(
            live,
            eq(clients.userId, principal.user?.id ?? '00000000-0000-0000-0000-000000000000'),
          ),
        );
      if (!own || own.card.status === 'new') throw notFoundDoc('patient_card');
      row = own.card;
    } else {
      row = await readable(deps.db, principal, 'patient_card', live);
    }
    await logRead(deps.db, principal, 'patient_card', row);
    setEtag(reply, row);
    return toDocument(deps.db, 'patient_card', row, { withReview: principal.role !== 'NONE' });
  },

  async updatePatientCard({ params, body, principal, deps, request, reply }) {
    const row = await inTransaction(deps.db, async (tx) => {
      const before = await readable(
        tx,
        principal,
        'patient_card',
        cardById(params.patientCardId),
        true,
      );
      checkIfMatch(request, before);
      return updateDocument(
        tx,
        principal,
        'patient_card',
        before,
        body,
        cardRules,
        AMEND_CARD,
        deps.now(),
      );
    });
    setEtag(reply, row);
    return toDocument(deps.db, 'patient_card', row);
  },

  amendPatientCard: (ctx) =>
    appendToDocument(ctx, 'patient_card', cardById(ctx.params.patientCardId), amendDocument),

  addPatientCardReviewComment: (ctx) =>
    appendToDocument(ctx, 'patient_card', cardById(ctx.params.patientCardId), addReviewComment, {
      logAsRead: true,
    }),
});
