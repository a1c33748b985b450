import { act, render, screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { beforeAll, expect } from 'vitest';
import { createI18n } from '../../src/i18n';
import {
  validateWebhookUrl,
  webhookDetailMachine,
} from '../../src/machines/webhook-detail.machine';
import { WebhookDetailView } from '../../src/views/admin/WebhookDetailPage';
import { readLocales } from '../support/locales';
import { describeModel, done, failed, type ModelTest, startMachine } from '../support/model';
import {
  BAD_URL,
  delivery,
  LOG,
  M1,
  M2,
  NEW,
  PENDING_LOG,
  ROTATED,
  SECRET,
  SERVER_ERROR,
  STORED,
  TYPE,
  URL,
} from './webhook-fakes';

/**
 * Model-based test of `/admin/webhooks/:type`: paths from the real machine (settings,
 * secret shown once, rotation after a question, test event, delivery log with deliver again and
 * polling while a message is pending), played against the rendered page with user clicks and
 * typing; each state is checked in what the page shows and in the calls that went out.
 */
let i18n: Awaited<ReturnType<typeof createI18n>>['i18n'];
beforeAll(async () => {
  const setup = createI18n({ lng: 'de', resources: readLocales('de', 'en'), debug: false });
  await setup.ready;
  i18n = setup.i18n;
});

interface DetailRun {
  toasts: string[];
  user: UserEvent;
}

const startDetail = () => {
  const toasts: string[] = [];
  const started = startMachine(webhookDetailMachine, {
    input: { type: TYPE },
    actions: {
      notifySaved: () => void toasts.push('saved'),
      notifyTestQueued: () => void toasts.push('testQueued'),
      notifyRedelivered: () => void toasts.push('redelivered'),
    },
  });
  render(
    <I18nextProvider i18n={i18n}>
      <WebhookDetailView type={TYPE} actorRef={started.actor} />
    </I18nextProvider>,
  );
  return Object.assign(started, { toasts, user: userEvent.setup() });
};

const button = (name: string | RegExp) => screen.getByRole('button', { name });
const settingsForm = () => screen.getByRole('form', { name: 'Webhook bearbeiten' });
const rotationBox = () => screen.getByRole('group', { name: 'Geheimnis erneuern' });
const message = (id: string) => document.querySelector<HTMLElement>(`[data-message-id="${id}"]`)!;

const detailModel: ModelTest<typeof webhookDetailMachine, ReturnType<typeof startDetail>> = {
  machine: webhookDetailMachine,
  plans: [
    {
      name: 'settings',
      input: { type: TYPE },
      // What the URL field holds decides whether submit sends.
      serialize: (s) => s.context.url,
      events: [
        done('loadWebhook', NEW),
        failed('loadWebhook', { code: 'network_error' }),
        { type: 'settings.retry' },
        { type: 'form.change', field: 'url', value: URL },
        { type: 'form.submit' },
        done('saveWebhook', { webhook: STORED, secret: SECRET }),
        failed('saveWebhook', BAD_URL),
        failed('saveWebhook', SERVER_ERROR),
        { type: 'form.retry' },
        { type: 'form.edit' },
      ],
      walks: [
        // An empty URL is refused before anything is sent; a server 400 lands at the field.
        [
          done('loadWebhook', NEW),
          { type: 'form.submit' },
          { type: 'form.change', field: 'url', value: 'ftp://x' },
          { type: 'form.submit' },
        ],
        [
          done('loadWebhook', NEW),
          { type: 'form.change', field: 'url', value: URL },
          { type: 'form.change', field: 'active', value: false },
          { type: 'form.submit' },
          failed('saveWebhook', BAD_URL),
        ],
        // The secret of the first save is shown until dismissed.
        [
          done('loadWebhook', NEW),
          { type: 'form.change', field: 'url', value: URL },
          { type: 'form.submit' },
          done('saveWebhook', { webhook: STORED, secret: SECRET }),
          { type: 'secret.dismiss' },
        ],
      ],
    },
    {
      name: 'rotation',
      input: { type: TYPE },
      events: [
        done('loadWebhook', STORED),
        { type: 'rotate.ask' },
        { type: 'rotate.confirm' },
        { type: 'rotate.abort' },
        { type: 'rotate.retry' },
        done('rotateSecret', {
          webhook: { ...STORED, previousSecretUntil: '2026-11-27T09:00:00Z' },
          secret: ROTATED,
        }),
        failed('rotateSecret', SERVER_ERROR),
      ],
    },
    {
      name: 'test event',
      input: { type: TYPE },
      events: [
        done('loadWebhook', STORED),
        { type: 'test.send' },
        done('sendTest', delivery(M1, 'pending', 'webhook.test')),
        failed('sendTest', { status: 409, code: 'webhook_not_configured' }),
        done('loadDeliveries', LOG),
      ],
      walks: [
        // A queued test reloads a log that was shown.
        [
          done('loadDeliveries', LOG),
          done('loadWebhook', STORED),
          { type: 'test.send' },
          done('sendTest', delivery(M1, 'pending', 'webhook.test')),
        ],
      ],
    },
    {
      name: 'log',
      input: { type: TYPE },
      events: [
        done('loadDeliveries', PENDING_LOG),
        failed('loadDeliveries', { code: 'network_error' }),
        { type: 'log.refresh' },
        { type: 'delivery.redeliver', messageId: M2 },
        done('redeliver', delivery(M2, 'delivered')),
        failed('redeliver', { status: 409, code: 'webhook_not_configured' }),
        { type: 'xstate.after.pendingPoll.webhookDetail.log.ready' },
      ],
      walks: [
        // A pending message: the log looks again by itself, until nothing is pending.
        [
          done('loadDeliveries', PENDING_LOG),
          { type: 'xstate.after.pendingPoll.webhookDetail.log.ready' },
          done('loadDeliveries', LOG),
        ],
        // Deliver again after a failed try: the log loads again with a toast.
        [
          done('loadDeliveries', LOG),
          { type: 'delivery.redeliver', messageId: M1 },
          failed('redeliver', SERVER_ERROR),
          { type: 'delivery.redeliver', messageId: M1 },
          done('redeliver', delivery(M1, 'pending')),
          done('loadDeliveries', LOG),
        ],
      ],
    },
  ],
  start: startDetail,
  wrap: (step) => act(step),
  events: {
    'settings.retry': (_, r) => r.user.click(button('Erneut versuchen')),
    'form.change': async (event: { field: 'url' | 'active'; value: string | boolean }, r) => {
      if (event.field === 'active')
        return r.user.click(screen.getByLabelText('Aktiv: Ereignisse an diese Adresse senden'));
      const input = screen.getByLabelText('Adresse (URL)');
      await r.user.clear(input);
      await r.user.type(input, String(event.value));
    },
    'form.submit': (_, r) =>
      r.user.click(within(settingsForm()).getByRole('button', { name: 'Speichern' })),
    'form.retry': (_, r) =>
      r.user.click(within(settingsForm()).getByRole('button', { name: 'Erneut versuchen' })),
    'form.edit': (_, r) => r.user.click(button('Weiter bearbeiten')),
    'secret.dismiss': (_, r) => r.user.click(button('Ich habe es gespeichert')),
    'rotate.ask': (_, r) => r.user.click(button('Geheimnis erneuern')),
    'rotate.confirm': (_, r) =>
      r.user.click(within(rotationBox()).getByRole('button', { name: 'Neues Geheimnis erzeugen' })),
    'rotate.retry': (_, r) =>
      r.user.click(within(rotationBox()).getByRole('button', { name: 'Erneut versuchen' })),
    'rotate.abort': (_, r) =>
      r.user.click(within(rotationBox()).getByRole('button', { name: 'Abbrechen' })),
    'test.send': (_, r) => r.user.click(button('Testereignis senden')),
    'log.refresh': (_, r) => r.user.click(button('Aktualisieren')),
    'delivery.redeliver': (event: { messageId: string }, r) =>
      r.user.click(
        within(message(event.messageId)).getByRole('button', { name: 'Erneut zustellen' }),
      ),
  },
  states: {
    'webhookDetail.settings.loading': (s, run) => {
      screen.getByText('Webhook wird geladen …');
      expect(s.hasTag('loading')).toBe(true);
      expect(s.can({ type: 'form.submit' })).toBe(false);
      expect(run.fakes.loadWebhook!.calls.at(-1)).toEqual({ type: TYPE });
    },
    'webhookDetail.settings.loadFailed': (s) => {
      expect(screen.getByRole('alert').textContent).toContain('Keine Verbindung zum Server');
      expect(s.context.error?.code).toBe('network_error');
      expect(s.can({ type: 'settings.retry' })).toBe(true);
    },
    'webhookDetail.settings.editing': (s, run) => {
      const input = screen.getByLabelText<HTMLInputElement>('Adresse (URL)');
      expect(input.value).toBe(s.context.url);
      expect(input.disabled).toBe(false);
      const fieldError = document.getElementById('webhook-url-error');
      if (s.context.fieldErrors.url === 'value_missing')
        expect(fieldError?.textContent).toBe('Bitte geben Sie eine Adresse an.');
      else if (s.context.fieldErrors.url)
        expect(fieldError?.textContent).toMatch(/^Bitte eine vollständige Adresse mit http/);
      else expect(fieldError).toBeNull();
      expect(input.getAttribute('aria-invalid')).toBe(s.context.fieldErrors.url ? 'true' : null);
      // The secret: shown with its copy button and the warning while it is in context, else nowhere.
      const shown = screen.queryByTestId('webhook-secret');
      expect(shown?.textContent ?? null).toBe(s.context.secret);
      if (s.context.secret) {
        screen.getByText(/Es wird nur jetzt angezeigt/);
        button('Geheimnis kopieren');
      }
      expect(s.can({ type: 'form.submit' })).toBe(true);
      const errors = s.context.fieldErrors;
      if (errors.url) expect(['value_missing', 'value_invalid_format']).toContain(errors.url);
      // A refused URL is never sent.
      for (const call of run.fakes.saveWebhook!.calls)
        expect(validateWebhookUrl(call.url)).toEqual({});
      if (s.context.secret !== null) {
        expect(s.context.secret).toBe(SECRET);
        expect(s.context.secretFrom).toBe('saved');
        expect(s.context.webhook?.secretSet).toBe(true);
      }
    },
    'webhookDetail.settings.saving': (s, run) => {
      const save = within(settingsForm()).getByRole('button', { name: 'Wird gespeichert …' });
      expect((save as HTMLButtonElement).disabled).toBe(true);
      expect(s.hasTag('saving')).toBe(true);
      expect(s.can({ type: 'form.submit' })).toBe(false);
      expect(run.fakes.saveWebhook!.calls.at(-1)).toEqual({
        type: TYPE,
        url: URL,
        active: s.context.active,
      });
    },
    'webhookDetail.settings.saveFailed': (s) => {
      expect(within(settingsForm()).getByRole('alert').textContent).toContain(
        'Das hat leider nicht geklappt',
      );
      expect(s.context.saveError?.code).toBe('internal_error');
      expect(s.can({ type: 'form.retry' })).toBe(true);
      expect(s.can({ type: 'form.edit' })).toBe(true);
    },
    'webhookDetail.rotation.idle': (s) => {
      expect(screen.queryByRole('group', { name: 'Geheimnis erneuern' })).toBeNull();
      if (s.context.webhook?.secretSet)
        expect((button('Geheimnis erneuern') as HTMLButtonElement).disabled).toBe(false);
      else expect(screen.queryByRole('button', { name: 'Geheimnis erneuern' })).toBeNull();
      expect(s.context.rotateError).toBeNull();
      expect(s.can({ type: 'rotate.ask' })).toBe(s.context.webhook?.secretSet === true);
      if (s.context.secretFrom === 'rotated') {
        expect(s.context.secret).toBe(ROTATED);
        expect(s.context.webhook?.previousSecretUntil).toBe('2026-11-27T09:00:00Z');
      }
    },
    'webhookDetail.rotation.asking': (s, run) => {
      expect(within(rotationBox()).getByText(/noch 24 Stunden lang mit/)).toBeTruthy();
      expect(s.can({ type: 'rotate.confirm' })).toBe(true);
      expect(s.can({ type: 'rotate.abort' })).toBe(true);
      expect(run.fakes.rotateSecret!.pending()).toBe(0);
    },
    'webhookDetail.rotation.rotating': (s, run) => {
      within(rotationBox()).getByRole('button', { name: 'Wird erzeugt …' });
      expect(s.can({ type: 'rotate.abort' })).toBe(false);
      expect(run.fakes.rotateSecret!.calls.at(-1)).toEqual({ type: TYPE });
    },
    'webhookDetail.rotation.failed': (s) => {
      expect(within(rotationBox()).getByRole('alert').textContent).toContain(
        'Das Geheimnis konnte nicht erneuert werden.',
      );
      expect(s.context.rotateError?.code).toBe('internal_error');
      expect(s.can({ type: 'rotate.retry' })).toBe(true);
    },
    'webhookDetail.test.idle': (s) => {
      if (s.context.webhook) {
        const send = screen.getByRole('button', {
          name: 'Testereignis senden',
        }) as HTMLButtonElement;
        expect(send.disabled).toBe(!s.context.webhook.url);
      } else expect(screen.queryByRole('button', { name: 'Testereignis senden' })).toBeNull();
      expect(s.can({ type: 'test.send' })).toBe(
        !!s.context.webhook?.url && s.context.webhook.secretSet,
      );
    },
    'webhookDetail.test.sending': (s, run) => {
      screen.getByRole('button', { name: 'Wird gesendet …' });
      expect(s.can({ type: 'test.send' })).toBe(false);
      expect(run.fakes.sendTest!.calls.at(-1)).toEqual({ type: TYPE });
    },
    'webhookDetail.test.sent': (s, run) => {
      screen.getByText(/Das Testereignis ist unterwegs/);
      expect(s.can({ type: 'test.send' })).toBe(true);
      expect((run as unknown as DetailRun).toasts).toContain('testQueued');
      // A log that was shown is asked for again.
      if (run.fakes.loadDeliveries!.calls.length > 1) expect(s.hasTag('logLoading')).toBe(true);
    },
    'webhookDetail.test.failed': (s) => {
      screen.getByText(
        /Das Testereignis konnte nicht gesendet werden\. Für diesen Webhook ist noch keine Adresse gespeichert\./,
      );
      expect(s.context.testError?.code).toBe('webhook_not_configured');
      expect(s.can({ type: 'test.send' })).toBe(true);
    },
    'webhookDetail.log.loading': (s, run) => {
      screen.getByText('Protokoll wird geladen …');
      expect(s.hasTag('logLoading')).toBe(true);
      expect(run.fakes.loadDeliveries!.pending()).toBe(1);
      expect(run.fakes.loadDeliveries!.calls.at(-1)).toEqual({ type: TYPE });
    },
    'webhookDetail.log.ready': (s) => {
      for (const d of s.context.deliveries) {
        const item = within(message(d.messageId));
        expect(message(d.messageId).querySelector('.delivery-meta .badge')?.textContent).toBe(
          { pending: 'ausstehend', delivered: 'zugestellt', failed: 'fehlgeschlagen' }[d.status],
        );
        expect(
          (item.getByRole('button', { name: 'Erneut zustellen' }) as HTMLButtonElement).disabled,
        ).toBe(false);
      }
      expect(s.context.deliveries.length).toBeGreaterThan(0);
      expect(s.can({ type: 'delivery.redeliver', messageId: M1 })).toBe(true);
      expect(s.can({ type: 'delivery.redeliver', messageId: 'unbekannt' })).toBe(false);
    },
    'webhookDetail.log.failed': (s) => {
      screen.getByText(/Das Protokoll konnte nicht geladen werden/);
      expect(s.context.logError?.code).toBe('network_error');
      expect(s.can({ type: 'log.refresh' })).toBe(true);
    },
    'webhookDetail.log.redelivering': (s, run) => {
      within(message(s.context.redelivering!)).getByRole('button', { name: 'Wird zugestellt …' });
      expect(s.can({ type: 'log.refresh' })).toBe(false);
      expect(run.fakes.redeliver!.calls.at(-1)).toEqual({
        type: TYPE,
        messageId: s.context.redelivering,
      });
    },
    'webhookDetail.log.redeliverFailed': (s) => {
      within(message(s.context.redelivering!)).getByText(
        /Die Nachricht konnte nicht erneut zugestellt werden/,
      );
      expect(s.context.redeliverError).not.toBeNull();
      expect(s.context.redelivering).not.toBeNull();
      expect(s.can({ type: 'log.refresh' })).toBe(true);
    },
  },
  finish: (run, path) => {
    const count = (type: string) => path.steps.filter((step) => step.event.type === type).length;
    const toasts = (run as unknown as DetailRun).toasts;
    expect(toasts.filter((t) => t === 'saved')).toHaveLength(
      count('xstate.done.actor.saveWebhook'),
    );
    expect(toasts.filter((t) => t === 'redelivered')).toHaveLength(
      count('xstate.done.actor.redeliver'),
    );
    // The secret is gone once dismissed.
    if (path.steps.at(-1)?.event.type === 'secret.dismiss')
      expect(run.actor.getSnapshot().context.secret).toBeNull();
  },
};

describeModel('webhook detail machine, model-based against its page', detailModel);
