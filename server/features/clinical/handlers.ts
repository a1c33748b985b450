import { and, desc, eq, ne } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db, Tx } from '../../db/client';
import {
  appointments,
  appointmentSummaries,
  clients,
  patientCards,
  type DocumentType,
} from '../../db/schema/index';
import type { Principal } from '../../http/auth';
import { actsAsClient, reachesRecord } from '../../access/policy';
import { defineHandlers, type AppDeps } from '../../http/handler';
import { conflict, notFound, type HttpProblem } from '../../http/problem';
import { inTransaction } from '../../db/transaction';
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
  type UpdateInput,
} from './documents';
import { clientClinicalStatus } from './status';

/** What differs between the two documents when they are written. */
const KINDS: Record<
  DocumentType,
  {
    blockers: (content: Record<string, unknown>) => string[];
    /** The call a signed document's changes go to instead. */
    amendCall: string;
    /** The 409 when the appointment (summary) or the client (card) has one already. */
    exists: () => HttpProblem;
  }
> = {
  summary: {
    blockers: (content) => summaryBlockers(content as SummaryContent),
    amendCall: 'POST /appointment/{appointmentId}/summary/amendments',
    exists: () => conflict('summary_exists', 'The appointment already has a summary'),
  },
  patient_card: {
    blockers: (content) => patientCardBlockers(content as PatientCardContent),
    amendCall: 'POST /patient-card/{patientCardId}/amendments',
    exists: () => conflict('patient_card_exists', 'The client already has a patient card'),
  },
};

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
  if (
    !reachesRecord(principal, { coachId: row.appointment.coachId, clientCoachId: row.coachedById })
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

type WriteContext = { principal: Principal; deps: AppDeps; reply: FastifyReply };
type SaveContext = WriteContext & { request: FastifyRequest; body: UpdateInput };

/** A new document (draft) of a held appointment; 201, or 409 when there is one already. */
async function createDocument(
  { principal, deps, reply }: WriteContext,
  type: DocumentType,
  appointmentId: string,
  content: Record<string, unknown>,
) {
  const row = await inTransaction(deps.db, async (tx) => {
    const appointment = await heldAppointment(tx, principal, appointmentId, deps.now());
    // Both tables have the same columns (DocRow).
    const [created] = await tx
      .insert(tableOf(type) as typeof patientCards)
      .values({
        appointmentId: appointment.id,
        clientId: appointment.clientId,
        coachId: appointment.coachId,
        content,
        blockerCodes: KINDS[type].blockers(content),
        authorId: principal.user?.id ?? null,
      })
      .onConflictDoNothing()
      .returning();
    if (!created) throw KINDS[type].exists();
    return created;
  });
  reply.code(201);
  setEtag(reply, row);
  return toDocument(deps.db, type, row);
}

/**
 * One PUT of a document, on the locked row after If-Match (see updateDocument); `saved` runs in
 * the same transaction.
 */
async function saveDocument(
  { principal, deps, reply, request, body }: SaveContext,
  type: DocumentType,
  where: ReturnType<typeof eq>,
  saved?: (tx: Tx, row: DocRow) => Promise<void>,
) {
  const { blockers, amendCall } = KINDS[type];
  const row = await inTransaction(deps.db, async (tx) => {
    const before = await readable(tx, principal, type, where, true);
    checkIfMatch(request, before);
    const after = await updateDocument(
      tx,
      principal,
      type,
      before,
      body,
      blockers,
      amendCall,
      deps.now(),
    );
    await saved?.(tx, after);
    return after;
  });
  setEtag(reply, row);
  return toDocument(deps.db, type, row);
}

/** What appends to a signed document: an amendment or a review comment. */
type Append<I> = (
  tx: Tx,
  principal: Principal,
  type: DocumentType,
  row: DocRow,
  input: I,
  now: Date,
) => Promise<void>;
type AppendContext<I> = WriteContext & { body: I };

/**
 * Appends the request body to a signed document (locked in one transaction) and answers 201 with
 * the document. `logAsRead`: the answer counts as a content read (a reviewer's comment); the
 * writer's own amendment does not (docs/decisions/0055-clinical-access.md).
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

  async createAppointmentSummary(ctx) {
    checkSummaryContent(ctx.body.content);
    return createDocument(ctx, 'summary', ctx.params.appointmentId, ctx.body.content);
  },

  async getAppointmentSummary({ params, principal, deps, reply }) {
    const row = await readable(deps.db, principal, 'summary', summaryOf(params.appointmentId));
    await logRead(deps.db, principal, 'summary', row);
    setEtag(reply, row);
    return toDocument(deps.db, 'summary', row);
  },

  async updateAppointmentSummary(ctx) {
    if (ctx.body.content) checkSummaryContent(ctx.body.content);
    return saveDocument(ctx, 'summary', summaryOf(ctx.params.appointmentId), async (tx, after) => {
      if (after.status === 'sent') await announceSigned(tx, ctx.deps, ctx.principal, after);
    });
  },

  amendAppointmentSummary: (ctx) =>
    appendToDocument(ctx, 'summary', summaryOf(ctx.params.appointmentId), amendDocument),

  addSummaryReviewComment: (ctx) =>
    appendToDocument(ctx, 'summary', summaryOf(ctx.params.appointmentId), addReviewComment, {
      logAsRead: true,
    }),

  createPatientCard: (ctx) =>
    createDocument(ctx, 'patient_card', ctx.params.appointmentId, ctx.body?.content ?? {}),

  async getClientPatientCard({ params, principal, deps, reply }) {
    const live = and(
      eq(patientCards.clientId, params.clientId),
      ne(patientCards.status, 'canceled'),
    )!;
    let row: DocRow;
    if (actsAsClient(principal)) {
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
    return toDocument(deps.db, 'patient_card', row, { withReview: !actsAsClient(principal) });
  },

  updatePatientCard: (ctx) => saveDocument(ctx, 'patient_card', cardById(ctx.params.patientCardId)),

  amendPatientCard: (ctx) =>
    appendToDocument(ctx, 'patient_card', cardById(ctx.params.patientCardId), amendDocument),

  addPatientCardReviewComment: (ctx) =>
    appendToDocument(ctx, 'patient_card', cardById(ctx.params.patientCardId), addReviewComment, {
      logAsRead: true,
    }),
});
