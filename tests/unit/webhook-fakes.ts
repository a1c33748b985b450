import type { components } from '../../shared/contract/product';

/** Webhooks, deliveries and failures for the superadmin area's model-based tests. */
export type Webhook = components['schemas']['Webhook'];
export type Delivery = components['schemas']['WebhookDelivery'];

export const TYPE = 'appointment.created' as const;
export const URL = 'https://hooks.beispiel.de/sprechstunde';
export const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
export const ROTATED = 'whsec_c2VjcmV0LXR3by1zZWNyZXQtdHdvLXNlY3JldA==';

export const webhook = (over: Partial<Webhook> = {}): Webhook => ({
  type: TYPE,
  url: null,
  secretSet: false,
  active: false,
  updatedAt: null,
  disabledAt: null,
  disabledReason: null,
  failingSince: null,
  previousSecretUntil: null,
  lastDelivery: null,
  ...over,
});
export const NEW = webhook();
export const STORED = webhook({
  url: URL,
  secretSet: true,
  active: true,
  updatedAt: '2026-11-20T10:00:00Z',
});

export const M1 = '0193a8f2-7c4e-7000-8000-000000000001';
export const M2 = '0193a8f2-7c4e-7000-8000-000000000002';
export const M3 = '0193a8f2-7c4e-7000-8000-000000000003';
export const delivery = (
  messageId: string,
  status: Delivery['status'],
  eventType = TYPE as string,
): Delivery => ({
  messageId,
  type: TYPE,
  eventType,
  createdAt: '2026-11-26T09:00:00Z',
  status,
  nextAttemptAt: null,
  attempts:
    status === 'pending'
      ? []
      : [
          {
            attemptNo: 1,
            attemptedAt: '2026-11-26T09:00:01Z',
            httpStatus: status === 'delivered' ? 200 : 500,
            durationMs: 42,
            error: status === 'delivered' ? null : 'HTTP 500',
            responseSnippet: 'ok',
            outcome: status === 'delivered' ? 'success' : 'failed',
            manual: false,
          },
        ],
});
export const LOG = [delivery(M1, 'failed'), delivery(M2, 'delivered')];
export const PENDING_LOG = [delivery(M3, 'pending', 'webhook.test'), ...LOG];
export const BAD_URL = {
  status: 400,
  code: 'validation_failed',
  fieldErrors: [{ field: 'body.url', code: 'value_invalid_format' }],
};
export const SERVER_ERROR = { status: 500, code: 'internal_error' };

/** The list's newest-delivery summary of LOG[1]. */
export const LAST: NonNullable<Webhook['lastDelivery']> = {
  messageId: M2,
  eventType: TYPE,
  createdAt: '2026-11-26T09:00:00Z',
  status: 'delivered',
  attemptedAt: '2026-11-26T09:00:01Z',
  httpStatus: 200,
  ok: true,
};
