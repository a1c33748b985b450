import {
  loadWebhookActor,
  loadWebhookDeliveriesActor,
  loadWebhookRowsActor,
  redeliverWebhookMessageActor,
  rotateWebhookSecretActor,
  saveWebhookActor,
  sendWebhookTestActor,
  syncAuthEmailsActor,
} from '../actors/admin';
import { emailSyncMachine } from '../email-sync.machine';
import { webhookDetailMachine } from '../webhook-detail.machine';
import { webhookListMachine } from '../webhook-list.machine';
import type { RouteEffects } from './effects';

/** `/admin/webhooks` wired to the API. */
export const wireWebhookList = ({ api }: RouteEffects) =>
  webhookListMachine.provide({ actors: { loadWebhooks: loadWebhookRowsActor(api) } });

/** `/admin/webhooks/:type` wired to the API and the toasts. */
export const wireWebhookDetail = ({ api, toast }: RouteEffects) =>
  webhookDetailMachine.provide({
    actors: {
      loadWebhook: loadWebhookActor(api),
      saveWebhook: saveWebhookActor(api),
      rotateSecret: rotateWebhookSecretActor(api),
      sendTest: sendWebhookTestActor(api),
      loadDeliveries: loadWebhookDeliveriesActor(api),
      redeliver: redeliverWebhookMessageActor(api),
    },
    actions: {
      notifySaved: () => toast({ kind: 'success', messageKey: 'admin:webhook.toasts.saved' }),
      notifyTestQueued: () =>
        toast({ kind: 'success', messageKey: 'admin:webhook.toasts.testQueued' }),
      notifyRedelivered: () =>
        toast({ kind: 'success', messageKey: 'admin:webhook.toasts.redelivered' }),
    },
  });

/** `/admin/email-sync` wired to the API. */
export const wireEmailSync = ({ api }: RouteEffects) =>
  emailSyncMachine.provide({ actors: { syncEmails: syncAuthEmailsActor(api) } });
