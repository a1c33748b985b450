import { tKey } from '../../i18n/keys';

/** German messages (namespace `admin`) for the error codes the superadmin pages meet. */
const ERRORS: Record<string, string> = {
  network_error: tKey('admin:errors.network'),
  forbidden: tKey('admin:errors.forbidden'),
  not_found: tKey('admin:errors.notFound'),
  webhook_not_configured: tKey('admin:errors.notConfigured'),
  validation_failed: tKey('admin:errors.validation'),
  rate_limited: tKey('admin:errors.rateLimited'),
  not_implemented: tKey('admin:errors.notImplemented'),
  research_key_missing: tKey('admin:errors.researchKeyMissing'),
};

export const adminErrorKey = (error: { code: string } | null | undefined): string =>
  ERRORS[error?.code ?? ''] ?? tKey('admin:errors.generic');

/** The German name of a webhook event type (or of `webhook.test`); unknown ones as they are. */
const TYPES: Record<string, string> = {
  'appointment.created': tKey('admin:types.appointment.created'),
  'appointment.rescheduled': tKey('admin:types.appointment.rescheduled'),
  'appointment.cancelled': tKey('admin:types.appointment.cancelled'),
  'appointment.no_show': tKey('admin:types.appointment.no_show'),
  'client.created': tKey('admin:types.client.created'),
  'client.updated': tKey('admin:types.client.updated'),
  'client.sessions_closed': tKey('admin:types.client.sessions_closed'),
  'billable_item.approved': tKey('admin:types.billable_item.approved'),
  'billable_item.invoice_sent': tKey('admin:types.billable_item.invoice_sent'),
  'summary.signed': tKey('admin:types.summary.signed'),
  'webhook.test': tKey('admin:types.webhook.test'),
};

export const webhookTypeName = (t: (key: string) => string, type: string): string =>
  TYPES[type] ? t(TYPES[type]) : type;

/** Field error codes of the webhook form. */
const FIELD_ERRORS: Record<string, string> = {
  value_missing: tKey('admin:webhook.fieldErrors.value_missing'),
  value_too_long: tKey('admin:webhook.fieldErrors.value_too_long'),
  value_invalid_format: tKey('admin:webhook.fieldErrors.value_invalid_format'),
  webhook_target_refused: tKey('admin:webhook.fieldErrors.webhook_target_refused'),
};

export const webhookFieldErrorKey = (code: string): string =>
  FIELD_ERRORS[code] ?? tKey('admin:webhook.fieldErrors.invalid');

/** Delivery status and attempt outcome words. */
export const STATUS_KEYS = {
  pending: tKey('admin:status.pending'),
  delivered: tKey('admin:status.delivered'),
  failed: tKey('admin:status.failed'),
} as const;

export const OUTCOME_KEYS = {
  success: tKey('admin:outcome.success'),
  failed: tKey('admin:outcome.failed'),
  refused: tKey('admin:outcome.refused'),
} as const;

/** Why the server switched a webhook off. */
export const DISABLED_KEYS = {
  gone: tKey('admin:webhooks.disabled.gone'),
  failing: tKey('admin:webhooks.disabled.failing'),
} as const;
