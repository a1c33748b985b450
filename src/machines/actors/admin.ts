import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import type { components } from '../../../shared/contract/product';

/** The superadmin area's calls (`/admin/webhook…`, `/admin/sync-auth-emails`; SUPERADMIN only). */

type Schemas = components['schemas'];
export type Webhook = Schemas['Webhook'];
export type WebhookType = Schemas['WebhookType'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type WebhookWithSecret = Schemas['WebhookWithSecret'];
export type AuthEmailSyncResult = Schemas['AuthEmailSyncResult'];

/**
 * `GET /admin/webhook`: every event type with its configuration and newest delivery, in one
 * call (the list's "last delivery" column).
 */
export const loadWebhookRowsActor = (api: ApiClient) =>
  fromPromise<Webhook[], void>(async ({ signal }) => {
    const { data } = await api.GET('/admin/webhook', { signal });
    return data!.webhooks;
  });

const path = (type: WebhookType) => ({ path: { type } });

/** `GET /admin/webhook/{type}`. */
export const loadWebhookActor = (api: ApiClient) =>
  fromPromise<Webhook, { type: WebhookType }>(async ({ input, signal }) => {
    const { data } = await api.GET('/admin/webhook/{type}', { params: path(input.type), signal });
    return data!;
  });

/** `POST /admin/webhook/{type}`: URL and active flag; the first save answers the new secret. */
export const saveWebhookActor = (api: ApiClient) =>
  fromPromise<WebhookWithSecret, { type: WebhookType; url: string; active: boolean }>(
    async ({ input, signal }) => {
      const { data } = await api.POST('/admin/webhook/{type}', {
        params: path(input.type),
        body: { url: input.url, active: input.active },
        signal,
      });
      return data!;
    },
  );

/** `POST /admin/webhook/{type}/rotate-secret`: the new secret, once; the old one signs 24 h more. */
export const rotateWebhookSecretActor = (api: ApiClient) =>
  fromPromise<WebhookWithSecret, { type: WebhookType }>(async ({ input, signal }) => {
    const { data } = await api.POST('/admin/webhook/{type}/rotate-secret', {
      params: path(input.type),
      signal,
    });
    return data!;
  });

/** `POST /admin/webhook/{type}/test`: a `webhook.test` message, queued (202). */
export const sendWebhookTestActor = (api: ApiClient) =>
  fromPromise<WebhookDelivery, { type: WebhookType }>(async ({ input, signal }) => {
    const { data } = await api.POST('/admin/webhook/{type}/test', {
      params: path(input.type),
      signal,
    });
    return data!;
  });

/** `GET /admin/webhook/{type}/deliveries`: the newest messages with every attempt. */
export const loadWebhookDeliveriesActor = (api: ApiClient) =>
  fromPromise<WebhookDelivery[], { type: WebhookType }>(async ({ input, signal }) => {
    const { data } = await api.GET('/admin/webhook/{type}/deliveries', {
      params: { ...path(input.type), query: { limit: 20 } },
      signal,
    });
    return data!.deliveries;
  });

/** `POST /admin/webhook/{type}/deliveries/{messageId}/redeliver`: one more attempt, same webhook-id. */
export const redeliverWebhookMessageActor = (api: ApiClient) =>
  fromPromise<WebhookDelivery, { type: WebhookType; messageId: string }>(
    async ({ input, signal }) => {
      const { data } = await api.POST('/admin/webhook/{type}/deliveries/{messageId}/redeliver', {
        params: { path: { type: input.type, messageId: input.messageId } },
        signal,
      });
      return data!;
    },
  );

/** `POST /admin/sync-auth-emails`: the counts of the comparison with the auth provider. */
export const syncAuthEmailsActor = (api: ApiClient) =>
  fromPromise<AuthEmailSyncResult, void>(async ({ signal }) => {
    const { data } = await api.POST('/admin/sync-auth-emails', { signal });
    return data!;
  });
