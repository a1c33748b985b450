import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  APPOINTMENT_TYPES,
  CLIENT_TYPES,
  EVENT_SOURCES,
  MAILING_LIST_STATUSES,
  MEETING_TYPES,
  REJECTION_REASONS,
  ROLES,
  type EventType,
} from '../../../shared/contract/enums';
import {
  createdAt,
  generationCounter,
  inList,
  ownedBy,
  stampedNow,
  ts,
  updatedAt,
  uuidId,
} from './columns';

export const coaches = pgTable(
  'coaches',
  {
    id: uuidId(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    telephone: text('telephone'),
    title: text('title'),
    takesInitialAppointments: boolean('takes_initial_appointments').notNull().default(true),
    active: boolean('active').notNull().default(true),
    /**
     * Raised by triggers (migration 0002) whenever the coach's appointments or availability
     * change: the free-slot cache compares it instead of re-reading the calendar.
     */
    scheduleVersion: integer('schedule_version').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('coaches_email_key').on(sql`lower(${t.email})`),
    index('coaches_last_name_idx').on(t.lastName, t.firstName),
  ],
);

export const users = pgTable(
  'users',
  {
    id: uuidId(),
    // The authentication provider's subject; empty until the person signs in for the first time.
    authSubject: text('auth_subject'),
    email: text('email').notNull(),
    role: text('role', { enum: ROLES }).notNull().default('NONE'),
    active: boolean('active').notNull().default(false),
    coachId: uuid('coach_id').references(() => coaches.id, { onDelete: 'set null' }),
    activationCodeHash: text('activation_code_hash'),
    activatedAt: ts('activated_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_auth_subject_key').on(t.authSubject),
    uniqueIndex('users_activation_code_key').on(t.activationCodeHash),
    // A coach record belongs to at most one account.
    uniqueIndex('users_coach_id_key')
      .on(t.coachId)
      .where(sql`${t.coachId} IS NOT NULL`),
    index('users_email_idx').on(sql`lower(${t.email})`),
    index('users_created_at_idx').on(t.createdAt),
    check('users_role_check', sql`${t.role} IN ${inList(ROLES)}`),
  ],
);

export const insurers = pgTable(
  'insurers',
  {
    id: uuidId(),
    name: text('name').notNull(),
    ikNumber: text('ik_number').notNull(),
    active: boolean('active').notNull().default(true),
    /** Postal address and invoice e-mail for invoices to this payer (§ 14 Abs. 4 Nr. 1 UStG). */
    street: text('street'),
    postalCode: text('postal_code'),
    city: text('city'),
    country: text('country').notNull().default('DE'),
    invoiceEmail: text('invoice_email'),
  },
  (t) => [
    uniqueIndex('insurers_name_key').on(t.name),
    check('insurers_ik_check', sql`${t.ikNumber} ~ '^[0-9]{9}$'`),
  ],
);

export const campaigns = pgTable(
  'campaigns',
  {
    id: uuidId(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    active: boolean('active').notNull().default(true),
    startsAt: ts('starts_at'),
    endsAt: ts('ends_at'),
    /** Postal address and invoice e-mail for invoices to this payer (§ 14 Abs. 4 Nr. 1 UStG). */
    street: text('street'),
    postalCode: text('postal_code'),
    city: text('city'),
    country: text('country').notNull().default('DE'),
    invoiceEmail: text('invoice_email'),
  },
  (t) => [uniqueIndex('campaigns_code_key').on(t.code)],
);

export type ContactPerson = {
  firstName: string;
  lastName: string;
  email: string | null;
  telephone: string | null;
};

export const clients = pgTable(
  'clients',
  {
    id: uuidId(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email'),
    yearOfBirth: integer('year_of_birth'),
    street: text('street'),
    city: text('city'),
    postalCode: text('postal_code'),
    country: text('country').default('DE'),
    telephone: text('telephone'),
    additionalTelephoneNumbers: text('additional_telephone_numbers'),
    hasNotSignedRequiredContract: boolean('has_not_signed_required_contract')
      .notNull()
      .default(false),
    rejectionReasonType: text('rejection_reason_type', { enum: REJECTION_REASONS }),
    rejectionReasonNotes: text('rejection_reason_notes'),
    insurer: text('insurer'),
    insurerCode: text('insurer_code'),
    campaign: text('campaign'),
    clientType: text('client_type', { enum: CLIENT_TYPES }).notNull().default('self'),
    contactPerson: jsonb('contact_person').$type<ContactPerson>(),
    howDidYouHearAboutUs: text('how_did_you_hear_about_us'),
    diagnosis: text('diagnosis'),
    initialDiagnosis: date('initial_diagnosis', { mode: 'string' }),
    mentalStressIndicator: integer('mental_stress_indicator'),
    paidBySponsor: boolean('paid_by_sponsor').notNull().default(false),
    wantsToProvideRecordingsForResearch: boolean('wants_to_provide_recordings_for_research')
      .notNull()
      .default(false),
    // SMS only with the client's own consent (an unticked box at sign-up); when it was given.
    notifyViaSms: boolean('notify_via_sms').notNull().default(false),
    smsConsentAt: ts('sms_consent_at'),
    // The newsletter (mailing list): the client's agreement, the member's status as last heard
    // from the list (webhook or sync; null = never on it), and a bounce the list reported.
    newsletterConsent: boolean('newsletter_consent').notNull().default(false),
    mailingListStatus: text('mailing_list_status', { enum: MAILING_LIST_STATUSES }),
    emailBouncedAt: ts('email_bounced_at'),
    emailBounceReason: text('email_bounce_reason', { enum: ['hard', 'abuse'] }),
    notes: text('notes'),
    sessionsClosedOn: ts('sessions_closed_on'),
    coachedById: uuid('coached_by_id').references(() => coaches.id, { onDelete: 'set null' }),
    existingClientOfCoachId: uuid('existing_client_of_coach_id').references(() => coaches.id, {
      onDelete: 'set null',
    }),
    contractReminderSentAt: ts('contract_reminder_sent_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    // What the client search matches (name, e-mail, insurance number), lowered once on write,
    // so a search reads it from the matching rows instead of computing it for each of them.
    searchText: text('search_text').generatedAlwaysAs(
      sql`lower("first_name" || ' ' || "last_name" || ' ' || coalesce("email", '') || ' ' || coalesce("insurer_code", ''))`,
    ),
  },
  (t) => [
    uniqueIndex('clients_user_id_key').on(t.userId),
    index('clients_search_text_trgm_idx').using('gin', t.searchText.op('gin_trgm_ops')),
    index('clients_created_at_idx').on(t.createdAt, t.id),
    // The default client list (sessions open, newest first) and its capped count walk this
    // small index alone. Campaign, insurer and coach have covering indexes in migration 0004
    // (INCLUDE cannot be declared here).
    index('clients_open_created_idx')
      .on(t.createdAt, t.id)
      .where(sql`${t.sessionsClosedOn} IS NULL`),
    index('clients_updated_at_idx').on(t.updatedAt),
    index('clients_last_name_idx').on(t.lastName, t.firstName),
    index('clients_first_name_idx').on(t.firstName),
    index('clients_year_of_birth_idx').on(t.yearOfBirth),
    index('clients_email_idx').on(sql`lower(${t.email})`),
    check('clients_client_type_check', sql`${t.clientType} IN ${inList(CLIENT_TYPES)}`),
    check(
      'clients_mailing_list_status_check',
      sql`${t.mailingListStatus} IS NULL OR ${t.mailingListStatus} IN ${inList(MAILING_LIST_STATUSES)}`,
    ),
    check(
      'clients_email_bounce_check',
      sql`(${t.emailBouncedAt} IS NULL) = (${t.emailBounceReason} IS NULL) AND (${t.emailBounceReason} IS NULL OR ${t.emailBounceReason} IN ('hard', 'abuse'))`,
    ),
    // The sync walks the consenting clients in id order.
    index('clients_newsletter_idx')
      .on(t.id)
      .where(sql`${t.newsletterConsent}`),
    check(
      'clients_rejection_reason_check',
      sql`${t.rejectionReasonType} IS NULL OR ${t.rejectionReasonType} IN ${inList(REJECTION_REASONS)}`,
    ),
    check(
      'clients_stress_check',
      sql`${t.mentalStressIndicator} IS NULL OR ${t.mentalStressIndicator} BETWEEN 0 AND 10`,
    ),
    check(
      'clients_year_check',
      sql`${t.yearOfBirth} IS NULL OR ${t.yearOfBirth} BETWEEN 1900 AND 2100`,
    ),
  ],
);

export const appointments = pgTable(
  'appointments',
  {
    id: uuidId(),
    clientId: ownedBy('client_id', () => clients.id),
    coachId: uuid('coach_id')
      .notNull()
      .references(() => coaches.id),
    startDate: ts('start_date').notNull(),
    endDate: ts('end_date').notNull(),
    appointmentType: text('appointment_type', { enum: APPOINTMENT_TYPES }).notNull(),
    meetingType: text('meeting_type', { enum: MEETING_TYPES }).notNull().default('jitsi'),
    meetingCodeCoach: text('meeting_code_coach').notNull(),
    meetingCodeClient: text('meeting_code_client').notNull(),
    // Hidden from both parties: the meeting code never doubles as the video room.
    videoRoom: text('video_room').notNull(),
    externalMeetingUrl: text('external_meeting_url'),
    // The client's insurer, kept by triggers (migration 0004) so the list filters and counts
    // by insurer on appointments alone instead of joining every client of that insurer.
    clientInsurer: text('client_insurer'),
    appointmentNumber: integer('appointment_number').notNull(),
    isProvisional: boolean('is_provisional').notNull().default(false),
    provisionalUntil: ts('provisional_until'),
    noShow: boolean('no_show').notNull().default(false),
    cancelledAt: ts('cancelled_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('appointments_meeting_code_coach_key').on(t.meetingCodeCoach),
    uniqueIndex('appointments_meeting_code_client_key').on(t.meetingCodeClient),
    uniqueIndex('appointments_client_number_key').on(t.clientId, t.appointmentNumber),
    index('appointments_start_idx').on(t.startDate, t.id),
    // Each ends in (start_date, id): the list's order, so a filtered page is an index walk.
    index('appointments_coach_start_idx').on(t.coachId, t.startDate, t.id),
    index('appointments_client_start_idx').on(t.clientId, t.startDate, t.id),
    index('appointments_type_start_idx').on(t.appointmentType, t.startDate, t.id),
    index('appointments_insurer_start_idx').on(t.clientInsurer, t.startDate, t.id),
    index('appointments_live_type_insurer_idx')
      .on(t.appointmentType, t.clientInsurer, t.startDate, t.id)
      .where(sql`${t.cancelledAt} IS NULL`),
    index('appointments_client_type_live_idx')
      .on(t.clientId, t.appointmentType)
      .where(sql`${t.cancelledAt} IS NULL`),
    // The billing item job (features/billing/items.ts): appointments ended or changed since
    // its last drained run, and the oldest ends first while a backlog drains.
    index('appointments_end_idx').on(t.endDate, t.id),
    index('appointments_updated_idx').on(t.updatedAt),
    index('appointments_provisional_idx')
      .on(t.provisionalUntil)
      .where(sql`${t.isProvisional} AND ${t.cancelledAt} IS NULL`),
    check('appointments_range_check', sql`${t.endDate} > ${t.startDate}`),
    check('appointments_type_check', sql`${t.appointmentType} IN ${inList(APPOINTMENT_TYPES)}`),
    check('appointments_meeting_type_check', sql`${t.meetingType} IN ${inList(MEETING_TYPES)}`),
  ],
);

/**
 * One row per word of a client's name, e-mail and insurance number (clients.search_text split
 * at spaces and punctuation), kept by a trigger on clients (migration 0007), with what a
 * search sorts and filters by most: a word-prefix search is then an index-only range scan
 * (index `client_search_terms_term_idx`, text_pattern_ops INCLUDE the other columns).
 */
export const clientSearchTerms = pgTable(
  'client_search_terms',
  {
    clientId: ownedBy('client_id', () => clients.id),
    term: text('term').notNull(),
    createdAt: ts('created_at').notNull(),
    open: boolean('open').notNull(),
    coachedById: uuid('coached_by_id'),
  },
  (t) => [index('client_search_terms_client_idx').on(t.clientId)],
);

/** How many letters of a word client_search_prefixes holds (migration 0008). */
export const SEARCH_PREFIX_LENGTH = 8;

/**
 * One row per client and start of one of its words (the first one to eight letters of each
 * row of client_search_terms, once per client), kept by the same triggers (migration 0008).
 * A search of one word is then an equality in the index `(prefix, created_at, client_id)`,
 * which hands over the matches already in the list's order: the page stops after its rows
 * instead of sorting every match (features/clients/search.ts).
 */
export const clientSearchPrefixes = pgTable(
  'client_search_prefixes',
  {
    clientId: ownedBy('client_id', () => clients.id),
    prefix: text('prefix').notNull(),
    createdAt: ts('created_at').notNull(),
    open: boolean('open').notNull(),
    coachedById: uuid('coached_by_id'),
  },
  (t) => [index('client_search_prefixes_client_idx').on(t.clientId)],
);

/**
 * One row whose value rises with every committed write to clients or appointments (deferred
 * triggers, migration 0006), in the writing transaction: a list count cached under a value
 * is exact for as long as a statement still reads that value (http/paging.ts).
 */
export const listGeneration = generationCounter('list_generation');

// One table for the audit trail (source 'business': every write, who did what to which
// record) and the operational feed (source 'system': mails, jobs, webhooks).
export const events = pgTable(
  'events',
  {
    id: uuidId(),
    occurredAt: stampedNow('occurred_at'),
    source: text('source', { enum: EVENT_SOURCES }).notNull(),
    // Typed with the contract's list: every insert names a type the app has a German name for.
    type: text('type').$type<EventType>().notNull(),
    entityType: text('entity_type').notNull(),
    entityId: uuid('entity_id'),
    important: boolean('important').notNull().default(true),
    actorUserId: uuid('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    appointmentId: uuid('appointment_id'),
    clientId: uuid('client_id'),
    coachId: uuid('coach_id'),
    changes: jsonb('changes').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [
    index('events_occurred_idx').on(t.occurredAt.desc()),
    index('events_appointment_idx').on(t.appointmentId, t.occurredAt.desc()),
    index('events_client_idx').on(t.clientId, t.occurredAt.desc()),
    index('events_coach_idx').on(t.coachId, t.occurredAt.desc()),
    index('events_actor_idx').on(t.actorUserId, t.occurredAt.desc()),
    index('events_important_idx')
      .on(t.occurredAt.desc())
      .where(sql`${t.important}`),
    check('events_source_check', sql`${t.source} IN ${inList(EVENT_SOURCES)}`),
  ],
);
