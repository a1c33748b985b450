import * as contract from './product';

/**
 * The contract's enums (openapi/product.yaml), one copy for both sides: the database schema's
 * columns and CHECK constraints (server/db/schema) and the forms' choices take them from here.
 * The values come from the generated file (`npm run gen:api`, `--enum-values`), so a value
 * added to the contract reaches the checks and the forms without a second list to edit.
 *
 * Casts, not calls: the generated lists are typed as plain arrays, Drizzle's `text(…, { enum })`
 * and zod's `z.enum` want a non-empty tuple; a call would keep every list in every bundle.
 */
type Tuple<T> = readonly [T, ...T[]];
type Schemas = contract.components['schemas'];

export const ROLES = contract.roleValues as Tuple<Schemas['Role']>;
export const SESSION_PERMISSIONS = contract.sessionPermissionValues as Tuple<
  Schemas['SessionPermission']
>;
export const APPOINTMENT_TYPES = contract.appointmentTypeValues as Tuple<
  Schemas['AppointmentType']
>;
export const MEETING_TYPES = contract.meetingTypeValues as Tuple<Schemas['MeetingType']>;
export const CLIENT_TYPES = contract.clientTypeValues as Tuple<Schemas['ClientType']>;
export const REJECTION_REASONS = contract.rejectionReasonTypeValues as Tuple<
  Schemas['RejectionReasonType']
>;
export const EVENT_SOURCES = contract.eventSourceValues as Tuple<Schemas['EventSource']>;
/** Every event type the server records (the `events.type` column and `recordEvent` take only these). */
export type EventType = Schemas['EventType'];
export const EVENT_TYPES = contract.eventTypeValues as Tuple<EventType>;
export const AVAILABILITY_KINDS = contract.availabilityKindValues as Tuple<
  Schemas['AvailabilityKind']
>;
export const BILLABLE_ITEM_STATUSES = contract.billableItemStatusValues as Tuple<
  Schemas['BillableItemStatus']
>;
export const BILLABLE_ITEM_OCCASIONS = contract.billableItemOccasionValues as Tuple<
  Schemas['BillableItemOccasion']
>;
export const BILLING_PAYER_KINDS = contract.billingPayerKindValues as Tuple<
  Schemas['BillingPayerKind']
>;
export const BILLING_VAT_TREATMENTS = contract.billingVatTreatmentValues as Tuple<
  Schemas['BillingVatTreatment']
>;
export const INVOICE_KINDS = contract.invoiceKindValues as Tuple<Schemas['InvoiceKind']>;
export const INVOICE_STATUSES = contract.invoiceStatusValues as Tuple<Schemas['InvoiceStatus']>;
export const COMMUNICATION_CHANNELS = contract.communicationChannelValues as Tuple<
  Schemas['CommunicationChannel']
>;
export const COMMUNICATION_STATUSES = contract.communicationStatusValues as Tuple<
  Schemas['CommunicationStatus']
>;
export const TASK_STATUSES = contract.taskStatusValues as Tuple<Schemas['TaskStatus']>;
export const SUPPORT_CATEGORIES = contract.supportCategoryValues as Tuple<
  Schemas['SupportCategory']
>;
export const WEBHOOK_TYPES = contract.webhookTypeValues as Tuple<Schemas['WebhookType']>;

export const MAILING_LIST_STATUSES = contract.mailingListStatusValues as Tuple<
  Schemas['MailingListStatus']
>;
export const MAILING_LIST_SYNC_STATUSES = contract.mailingListSyncStatusValues as Tuple<
  Schemas['MailingListSync']['status']
>;

/**
 * `true` when the list `O` names every value of the enum `T`. A form that offers the values in
 * an order of its own (a select's options) states `const _all: ListsAll<Role, typeof ROLES> =
 * true;`, so a value added to the contract fails the typecheck until the form offers it.
 */
export type ListsAll<T, O extends readonly unknown[]> = [Exclude<T, O[number]>] extends [never]
  ? true
  : false;
