import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { canonicalHash } from '../../canonical-json';
import type { Db, Tx } from '../../db/client';
import {
  appointmentSummaries,
  clients,
  clinicalAccessLog,
  clinicalAmendments,
  clinicalReviewComments,
  coaches,
  patientCards,
  users,
  type DocumentType,
} from '../../db/schema/index';
import type { Principal } from '../../http/auth';
import { mayReadContent, reachOf } from '../../access/policy';
import { mayReadClinical } from '../../../shared/clinical-access';
import { badRequest, conflict, HttpProblem, notFound } from '../../http/problem';
import { blockersOf } from './content';

export type DocTable = typeof appointmentSummaries | typeof patientCards;
// The columns both documents have.
export type DocRow = typeof patientCards.$inferSelect;
type AmendmentRow = typeof clinicalAmendments.$inferSelect;

export const tableOf = (type: DocumentType): DocTable =>
  type === 'summary' ? appointmentSummaries : patientCards;

const iso = (value: string | Date | null) =>
  value === null ? null : new Date(value).toISOString();

/**
 * Who may read a document's content (access policy): a clinical reader who reaches it, a coach
 * for documents of their appointments or of clients they coach. Anyone else gets 404, so
 * nothing can be inferred. The client's coach is read only when the document's own coach
 * does not already decide it.
 */
export async function canReadContent(
  db: Db | Tx,
  principal: Principal,
  row: DocRow,
): Promise<boolean> {
  if (mayReadContent(principal, { coachId: row.coachId, clientCoachId: null })) return true;
  if (reachOf(principal).kind !== 'coach' || !mayReadClinical(principal.role)) return false;
  const [client] = await db
    .select({ coachedById: clients.coachedById })
    .from(clients)
    .where(eq(clients.id, row.clientId));
  return mayReadContent(principal, {
    coachId: row.coachId,
    clientCoachId: client?.coachedById ?? null,
  });
}

export async function logRead(db: Db | Tx, principal: Principal, type: DocumentType, row: DocRow) {
  await db.insert(clinicalAccessLog).values({
    userId: principal.user?.id ?? null,
    clientId: row.clientId,
    documentType: type,
    documentId: row.id,
  });
}

/** What the signature covers: the document, who signed, when, and the content. */
export const signedPayload = (
  type: DocumentType,
  row: Pick<DocRow, 'id' | 'signedById' | 'signedAt' | 'content'>,
) => ({
  type,
  id: row.id,
  signedById: row.signedById,
  signedAt: iso(row.signedAt),
  content: row.content,
});
export const amendmentPayload = (
  row: Pick<AmendmentRow, 'documentId' | 'authorId' | 'createdAt' | 'reason' | 'text'>,
) => ({
  documentId: row.documentId,
  authorId: row.authorId,
  createdAt: iso(row.createdAt),
  reason: row.reason,
  text: row.text,
});

async function amendmentsOf(db: Db | Tx, type: DocumentType, id: string) {
  return db
    .select()
    .from(clinicalAmendments)
    .where(and(eq(clinicalAmendments.documentType, type), eq(clinicalAmendments.documentId, id)))
    .orderBy(asc(clinicalAmendments.createdAt), asc(clinicalAmendments.id));
}

async function reviewCommentsOf(db: Db | Tx, type: DocumentType, id: string) {
  return db
    .select()
    .from(clinicalReviewComments)
    .where(
      and(eq(clinicalReviewComments.documentType, type), eq(clinicalReviewComments.documentId, id)),
    )
    .orderBy(asc(clinicalReviewComments.createdAt), asc(clinicalReviewComments.id));
}

/**
 * Display names of accounts, in one query (users joined to their coach record): the coach's
 * name, else the account's e-mail. Missing accounts are simply absent.
 */
export async function namesOf(db: Db | Tx, ids: ReadonlyArray<string | null>) {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map<string, string>();
  const rows = await db
    .select({
      id: users.id,
      name: sql<string>`coalesce(nullif(trim(${coaches.firstName} || ' ' || ${coaches.lastName}), ''), ${users.email})`,
    })
    .from(users)
    .leftJoin(coaches, eq(coaches.id, users.coachId))
    .where(inArray(users.id, wanted));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/**
 * The contract's shape of a document (summary or card); verifies every hash on the way.
 * `withReview: false` leaves the reviewers' comments out (a client reading their own card).
 */
export async function toDocument(
  db: Db | Tx,
  type: DocumentType,
  row: DocRow,
  { withReview = true }: { withReview?: boolean } = {},
) {
  // Only signed documents take amendments and comments: a draft's read (every autosave) skips
  // those queries and, with no one to name, the names.
  const isSigned = row.signedAt !== null;
  const [amendments, comments] = isSigned
    ? await Promise.all([
        amendmentsOf(db, type, row.id),
        withReview ? reviewCommentsOf(db, type, row.id) : Promise.resolve([]),
      ])
    : [[], []];
  const names = isSigned
    ? await namesOf(db, [
        row.signedById,
        row.completedById,
        ...amendments.map((a) => a.authorId),
        ...comments.map((c) => c.authorId),
      ])
    : new Map<string, string>();
  const nameOf = (id: string | null) => (id === null ? null : (names.get(id) ?? null));
  // An amendment's or a review comment's author and time.
  const authored = (entry: Pick<AmendmentRow, 'id' | 'authorId' | 'createdAt'>) => ({
    id: entry.id,
    authorId: entry.authorId,
    authorName: nameOf(entry.authorId),
    createdAt: iso(entry.createdAt)!,
  });
  const signed = row.signedAt !== null && row.contentHash !== null && row.signedById !== null;
  const verified =
    signed &&
    canonicalHash(signedPayload(type, row)) === row.contentHash &&
    amendments.every((a) => canonicalHash(amendmentPayload(a)) === a.contentHash);
  const blockers = row.status === 'new' ? blockersOf(row.blockerCodes) : [];
  return {
    id: row.id,
    appointmentId: row.appointmentId,
    clientId: row.clientId,
    coachId: row.coachId,
    status: row.status,
    availability: blockers.length ? ('blocker' as const) : ('available' as const),
    blockers,
    content: row.content as never,
    version: row.version,
    signature: signed
      ? {
          signedById: row.signedById!,
          signedByName: nameOf(row.signedById),
          signedAt: iso(row.signedAt)!,
          contentHash: row.contentHash!,
          verified,
        }
      : null,
    amendments: amendments.map((a) => ({ ...authored(a), reason: a.reason, text: a.text })),
    reviewComments: comments.map((c) => ({ ...authored(c), text: c.text })),
    completedAt: iso(row.completedAt),
    completedById: row.completedById,
    completedByName: nameOf(row.completedById),
    canceledAt: iso(row.canceledAt),
    authorId: row.authorId,
    createdAt: iso(row.createdAt)!,
    updatedAt: iso(row.updatedAt)!,
  };
}

export const etagOf = (row: Pick<DocRow, 'version'>) => `"v${row.version}"`;
export const setEtag = (reply: FastifyReply, row: Pick<DocRow, 'version'>) =>
  reply.header('etag', etagOf(row));

/** 412 when If-Match names another version; no If-Match = last writer wins. */
export function checkIfMatch(request: FastifyRequest, row: DocRow) {
  const header = request.headers['if-match'];
  if (typeof header !== 'string' || header.trim() === '*') return;
  const tags = header.split(',').map((t) => t.trim().replace(/^W\//, ''));
  if (!tags.includes(etagOf(row))) {
    throw new HttpProblem(
      412,
      'precondition_failed',
      'Precondition Failed',
      `The document is at version ${row.version}; read it again and merge`,
    );
  }
}

export interface UpdateInput {
  content?: Record<string, unknown>;
  status?: DocRow['status'];
}

/**
 * One PUT on a locked row: drafts take new content, `sent` signs (no blockers allowed),
 * `canceled` cancels a draft. Signed documents never change here.
 */
export async function updateDocument(
  tx: Tx,
  principal: Principal,
  type: DocumentType,
  row: DocRow,
  input: UpdateInput,
  blockersFor: (content: Record<string, unknown>) => string[],
  amendmentCall: string,
  now: Date,
): Promise<DocRow> {
  const table = tableOf(type);
  if (input.status === 'completed') {
    throw conflict('invalid_transition', 'completed is set by review (batch processing) only');
  }
  if (row.status === 'sent' || row.status === 'completed') {
    throw conflict(
      'document_signed',
      `The document is signed and stays as it is; append an amendment with ${amendmentCall}`,
    );
  }
  if (row.status === 'canceled') throw conflict('invalid_transition', 'The document is canceled');
  const content = input.content ?? row.content;
  const blockerCodes = blockersFor(content);
  const base = { content, blockerCodes, version: row.version + 1, updatedAt: sql`now()` };
  let set: Record<string, unknown> = base;
  if (input.status === 'canceled') {
    set = { ...base, status: 'canceled', canceledAt: now.toISOString() };
  } else if (input.status === 'sent') {
    if (blockerCodes.length) {
      throw new HttpProblem(
        409,
        'task_blocked',
        'Conflict',
        'The document cannot be signed yet',
        blockersOf(blockerCodes).map((b) => ({
          field: 'content',
          code: b.code,
          message: b.message,
        })),
      );
    }
    const signed = {
      id: row.id,
      signedById: principal.user!.id,
      signedAt: now.toISOString(),
      content,
    };
    set = {
      ...base,
      ...signed,
      status: 'sent',
      contentHash: canonicalHash(signedPayload(type, signed)),
    };
  }
  const [updated] = await tx.update(table).set(set).where(eq(table.id, row.id)).returning();
  return updated as DocRow;
}

/** Appends an amendment to a signed document (author, time, reason, text, own hash). */
export async function amendDocument(
  tx: Tx,
  principal: Principal,
  type: DocumentType,
  row: DocRow,
  input: { reason: string; text: string },
  now: Date,
) {
  if (row.status !== 'sent' && row.status !== 'completed') {
    throw conflict(
      'document_not_signed',
      'Only a signed document takes amendments; change the draft instead',
    );
  }
  const values = {
    documentType: type,
    documentId: row.id,
    authorId: principal.user?.id ?? null,
    createdAt: now.toISOString(),
    reason: input.reason,
    text: input.text,
  };
  await tx
    .insert(clinicalAmendments)
    .values({ ...values, contentHash: canonicalHash(amendmentPayload(values)) });
}

/** Appends a reviewer's comment to a signed document (never logged: it is health data). */
export async function addReviewComment(
  tx: Tx,
  principal: Principal,
  type: DocumentType,
  row: DocRow,
  input: { text: string },
  now: Date,
) {
  const text = input.text.trim();
  if (!text) throw badRequest('text', 'required', 'The comment is empty');
  if (row.status !== 'sent' && row.status !== 'completed') {
    throw conflict('document_not_signed', 'Only a signed document takes review comments');
  }
  await tx.insert(clinicalReviewComments).values({
    documentType: type,
    documentId: row.id,
    authorId: principal.user?.id ?? null,
    createdAt: now.toISOString(),
    text,
  });
}

export const notFoundDoc = (type: DocumentType) =>
  notFound(type === 'summary' ? 'summary' : 'patient card');
