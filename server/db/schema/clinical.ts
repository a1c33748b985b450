import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { TASK_STATUSES } from '../../../shared/contract/enums';
import { createdAt, generationCounter, inList, stampedNow, ts, updatedAt, uuidId } from './columns';
import { coaches, users } from './core';

// Clinical documents are kept for 10 years after the last appointment (§ 630f BGB), also when
// the client is erased: client and appointment ids are plain references without a foreign
// key, so deleting the client (and with it the appointments) leaves the documents in place.
export const DOCUMENT_TYPES = ['summary', 'patient_card'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

const signedColumns = () => ({
  status: text('status', { enum: TASK_STATUSES }).notNull().default('new'),
  content: jsonb('content').$type<Record<string, unknown>>().notNull(),
  version: integer('version').notNull().default(1),
  // Codes of what stops signing, kept on every write so the counts need no content.
  blockerCodes: jsonb('blocker_codes').$type<string[]>().notNull().default([]),
  signedById: uuid('signed_by_id').references(() => users.id),
  signedAt: ts('signed_at'),
  contentHash: text('content_hash'),
  completedAt: ts('completed_at'),
  completedById: uuid('completed_by_id').references(() => users.id),
  canceledAt: ts('canceled_at'),
  authorId: uuid('author_id').references(() => users.id),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

const lifecycleChecks = (
  name: string,
  t: {
    status: unknown;
    signedAt: unknown;
    contentHash: unknown;
    signedById: unknown;
    completedAt: unknown;
    canceledAt: unknown;
  },
) => [
  check(`${name}_status_check`, sql`${t.status} IN ${inList(TASK_STATUSES)}`),
  check(
    `${name}_signed_check`,
    sql`${t.status} NOT IN ('sent', 'completed') OR (${t.signedAt} IS NOT NULL AND ${t.contentHash} IS NOT NULL AND ${t.signedById} IS NOT NULL)`,
  ),
  check(
    `${name}_completed_check`,
    sql`(${t.status} = 'completed') = (${t.completedAt} IS NOT NULL)`,
  ),
  check(`${name}_canceled_check`, sql`(${t.status} = 'canceled') = (${t.canceledAt} IS NOT NULL)`),
];

/** What can cancel a summary draft besides its author: its appointment's cancellation or no-show. */
export const SUMMARY_CANCEL_CAUSES = ['appointment_cancelled', 'no_show'] as const;

/** One summary per appointment (Terminzusammenfassung). */
export const appointmentSummaries = pgTable(
  'appointment_summaries',
  {
    id: uuidId(),
    appointmentId: uuid('appointment_id').notNull(),
    clientId: uuid('client_id').notNull(),
    coachId: uuid('coach_id')
      .notNull()
      .references(() => coaches.id),
    ...signedColumns(),
    /**
     * Why a draft was canceled with its appointment (null: by hand). A draft canceled for a
     * no-show is a draft again when the no-show is taken back.
     */
    canceledWith: text('canceled_with', { enum: SUMMARY_CANCEL_CAUSES }),
  },
  (t) => [
    uniqueIndex('appointment_summaries_appointment_key').on(t.appointmentId),
    check(
      'appointment_summaries_canceled_with_check',
      sql`${t.canceledWith} IS NULL OR (${t.status} = 'canceled' AND ${t.canceledWith} IN ${inList(SUMMARY_CANCEL_CAUSES)})`,
    ),
    index('appointment_summaries_coach_status_idx').on(t.coachId, t.status),
    index('appointment_summaries_client_idx').on(t.clientId),
    ...lifecycleChecks('appointment_summaries', t),
  ],
);

/** The client's intake record (Patientenkarte): one per client that is not canceled. */
export const patientCards = pgTable(
  'patient_cards',
  {
    id: uuidId(),
    clientId: uuid('client_id').notNull(),
    appointmentId: uuid('appointment_id').notNull(),
    coachId: uuid('coach_id')
      .notNull()
      .references(() => coaches.id),
    ...signedColumns(),
  },
  (t) => [
    uniqueIndex('patient_cards_live_client_key')
      .on(t.clientId)
      .where(sql`${t.status} <> 'canceled'`),
    index('patient_cards_coach_status_idx').on(t.coachId, t.status),
    ...lifecycleChecks('patient_cards', t),
  ],
);

/**
 * The open summary work: one row per appointment that gets a summary (not
 * cancelled, not a no-show, not provisional; future ones too) and has none or only a draft.
 * Kept in the writing transaction by statement-level triggers on appointments and
 * appointment_summaries (migration clinical_open_work), so the incomplete list, its count and
 * the overall status read only open rows: `start_date <= now - 30 min` in the index.
 */
export const clinicalOpenSummaries = pgTable(
  'clinical_open_summaries',
  {
    appointmentId: uuid('appointment_id').primaryKey(),
    coachId: uuid('coach_id').notNull(),
    startDate: ts('start_date').notNull(),
    endDate: ts('end_date').notNull(),
    /** The draft's id; null while the appointment has no summary at all. */
    summaryId: uuid('summary_id'),
  },
  (t) => [
    index('clinical_open_summaries_start_idx').on(t.startDate, t.appointmentId),
    index('clinical_open_summaries_coach_start_idx').on(t.coachId, t.startDate, t.appointmentId),
  ],
);

/**
 * The open patient card work: one row per client whose first appointment that counts (not
 * cancelled, no-show or provisional) is known and who has no card or only a draft; `coach_id`
 * is the client's coach, else that appointment's. Kept by triggers on appointments, clients
 * and patient_cards (migration clinical_open_work).
 */
export const clinicalOpenPatientCards = pgTable(
  'clinical_open_patient_cards',
  {
    clientId: uuid('client_id').primaryKey(),
    appointmentId: uuid('appointment_id').notNull(),
    coachId: uuid('coach_id').notNull(),
    startDate: ts('start_date').notNull(),
    endDate: ts('end_date').notNull(),
    /** The draft's id; null while the client has no card. */
    patientCardId: uuid('patient_card_id'),
  },
  (t) => [
    index('clinical_open_patient_cards_start_idx').on(t.startDate, t.appointmentId),
    index('clinical_open_patient_cards_coach_start_idx').on(
      t.coachId,
      t.startDate,
      t.appointmentId,
    ),
  ],
);

/**
 * Rises once per transaction that changed the open work tables (deferred triggers, migration
 * clinical_open_generation): an incomplete list's count remembered under a value stays exact
 * while a statement still reads that value; only the appointments that became due since are
 * counted on top (features/clinical/work-items.ts).
 */
export const clinicalOpenGeneration = generationCounter('clinical_open_generation');

/** Appended after signing; never updated (§ 630f BGB: the original stays recognisable). */
export const clinicalAmendments = pgTable(
  'clinical_amendments',
  {
    id: uuidId(),
    documentType: text('document_type', { enum: DOCUMENT_TYPES }).notNull(),
    documentId: uuid('document_id').notNull(),
    authorId: uuid('author_id').references(() => users.id),
    createdAt: createdAt(),
    reason: text('reason').notNull(),
    text: text('text').notNull(),
    contentHash: text('content_hash').notNull(),
  },
  (t) => [
    index('clinical_amendments_document_idx').on(t.documentType, t.documentId, t.createdAt),
    check('clinical_amendments_type_check', sql`${t.documentType} IN ${inList(DOCUMENT_TYPES)}`),
  ],
);

/**
 * A reviewer's comment on a signed document: author, time, text. Not part of
 * the signed content nor of its hash; health data like the document (read with it, logged).
 */
export const clinicalReviewComments = pgTable(
  'clinical_review_comments',
  {
    id: uuidId(),
    documentType: text('document_type', { enum: DOCUMENT_TYPES }).notNull(),
    documentId: uuid('document_id').notNull(),
    authorId: uuid('author_id').references(() => users.id),
    createdAt: createdAt(),
    text: text('text').notNull(),
  },
  (t) => [
    index('clinical_review_comments_document_idx').on(t.documentType, t.documentId, t.createdAt),
    check(
      'clinical_review_comments_type_check',
      sql`${t.documentType} IN ${inList(DOCUMENT_TYPES)}`,
    ),
  ],
);

/** Every read of clinical content: who, when, which document (never the content). */
export const clinicalAccessLog = pgTable(
  'clinical_access_log',
  {
    id: uuidId(),
    at: stampedNow('at'),
    userId: uuid('user_id').references(() => users.id),
    clientId: uuid('client_id').notNull(),
    documentType: text('document_type', { enum: DOCUMENT_TYPES }).notNull(),
    documentId: uuid('document_id').notNull(),
  },
  (t) => [
    index('clinical_access_log_client_idx').on(t.clientId, t.at.desc()),
    check('clinical_access_log_type_check', sql`${t.documentType} IN ${inList(DOCUMENT_TYPES)}`),
  ],
);
