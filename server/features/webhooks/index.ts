/** The webhooks feature's public face: the only module other parts of the server import. */
export { webhooksHandlers } from './handlers';
export {
  DELIVER_WEBHOOK_JOB,
  emitWebhook,
  emitWebhooks,
  type ThinData,
  type WebhookType,
} from './emit';
export { webhookJobs, WEBHOOK_WORK, type WebhookJobDeps } from './deliver';
export { newWebhookSecret, signatureHeader } from './secrets';
export { MAX_ATTEMPTS, nextDelayMs, parseRetryAfter, RETRY_DELAYS_MS } from './retry-schedule';
export {
  assertWebhookUrl,
  guardedLookup,
  refusalOf,
  saveRefusalOf,
  TargetRefused,
} from './target-guard';
export { appointmentData, billableItemData, clientData, summarySignedData } from './payloads';
export {
  keyringOf,
  needsSealing,
  openSecret,
  sealSecret,
  sealStoredSecrets,
  SecretUnreadable,
} from './secret-box';
