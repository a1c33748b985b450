import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../../src/api/errors';
import { createI18n } from '../../src/i18n';
import type { FormValues } from '../../src/forms/form-schema';
import {
  recordFormMachine,
  type LoadedRecord,
  type SaveRequest,
} from '../../src/machines/record-form.machine';
import { RecordForm, TextField } from '../../src/views/staff/FormParts';
import { readLocales } from '../support/locales';
import { describeModel, done, failed, flush, startMachine, type Fake } from '../support/model';

/**
 * The generic record form: model-based paths from the real machine played against the form
 * frame every staff form renders, plus the rules (validation with zod before any request, 400
 * field errors at their fields, only changed fields sent, 409 as a conflict).
 */

const schema = z.object({
  name: z.string().trim().min(1, { error: 'value_missing' }).max(20, { error: 'value_too_long' }),
  email: z
    .string()
    .trim()
    .refine((s) => s === '' || /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(s), { error: 'invalid_email' })
    .transform((s) => (s === '' ? null : s)),
});

const LOADED: LoadedRecord = {
  values: { name: 'Mia', email: '' },
  record: { id: 'c1', name: 'Mia' },
};
const NETWORK = Object.assign(new Error('offline'), { code: 'network_error' });
const problem = (
  status: number,
  code: string,
  errors: Array<{ field: string; code: string }> = [],
) => new ApiError({ status, code, fieldErrors: errors });

function startForm(id: string | null, values?: FormValues) {
  const saved: Array<{ unchanged: boolean }> = [];
  const started = startMachine(recordFormMachine, {
    input: { id, schema, ...(values ? { values } : {}) },
    actions: {
      notifySaved: (_: unknown, params: { unchanged: boolean }) =>
        void saved.push({ unchanged: params.unchanged }),
    },
  });
  return {
    ...started,
    load: started.fakes.loadRecord as Fake<{ id: string }, LoadedRecord>,
    save: started.fakes.saveRecord as Fake<SaveRequest, unknown>,
    saved,
  };
}

let i18n: Awaited<ReturnType<typeof createI18n>>['i18n'];
beforeAll(async () => {
  const setup = createI18n({ lng: 'de', resources: readLocales('de', 'en'), debug: false });
  await setup.ready;
  i18n = setup.i18n;
});

type FormRun = ReturnType<typeof startForm> & {
  saves: number;
  user: ReturnType<typeof userEvent.setup>;
};
const click = (r: FormRun, label: string) =>
  r.user.click(screen.getByRole('button', { name: label }));

describeModel('record form machine, model-based', {
  machine: recordFormMachine,
  plans: [
    {
      input: { id: 'c1', schema },
      events: [
        done('loadRecord', LOADED),
        failed('loadRecord', NETWORK),
        done('saveRecord', { id: 'c1' }),
        failed(
          'saveRecord',
          problem(400, 'validation_failed', [{ field: 'email', code: 'value_invalid_format' }]),
        ),
        failed('saveRecord', problem(409, 'email_taken')),
        failed('saveRecord', NETWORK),
        { type: 'form.change', field: 'name', value: 'Mia Maier' },
        { type: 'form.change', field: 'name', value: '' },
        { type: 'form.submit' },
        { type: 'form.retry' },
        { type: 'form.edit' },
        { type: 'form.reload' },
      ],
      serialize: (s) => ({
        values: s.context.values,
        errors: s.context.fieldErrors,
        error: s.context.error?.code ?? null,
      }),
    },
  ],
  start: (): FormRun => {
    const run = { ...startForm('c1'), saves: 0, user: userEvent.setup() };
    render(
      <I18nextProvider i18n={i18n}>
        <RecordForm actorRef={run.actor} label="Klient:in bearbeiten" submitLabel="Speichern">
          <TextField actorRef={run.actor} name="name" label="Name" />
          <TextField actorRef={run.actor} name="email" label="E-Mail" type="email" />
        </RecordForm>
      </I18nextProvider>,
    );
    return run;
  },
  wrap: (step) => act(step),
  events: {
    'form.change': async (event, r) => {
      const input = screen.getByRole('textbox', { name: 'Name' });
      await r.user.clear(input);
      if (event.value) await r.user.type(input, event.value);
    },
    'form.submit': (_, r) => click(r, 'Speichern'),
    'form.retry': (_, r) => click(r, 'Erneut versuchen'),
    'form.edit': (_, r) => click(r, 'Weiter bearbeiten'),
    'form.reload': (_, r) => click(r, 'Aktuellen Stand laden'),
  },
  states: {
    '#recordForm.loading': () => {
      expect(screen.getByRole('status').textContent).toContain('Wird geladen');
      expect(screen.queryByRole('form')).toBeNull();
    },
    '#recordForm.loadFailed': () => {
      expect(screen.getByRole('alert').textContent).toContain('Keine Verbindung');
      screen.getByRole('button', { name: 'Erneut versuchen' });
    },
    '#recordForm.editing': (snap) => {
      const input = screen.getByRole('textbox', { name: 'Name' }) as HTMLInputElement;
      expect(input.value).toBe(snap.context.values.name);
      expect(input.matches(':disabled')).toBe(false);
      if (snap.context.fieldErrors.name === 'value_missing') {
        expect(input.getAttribute('aria-invalid')).toBe('true');
        screen.getByText('Bitte füllen Sie dieses Feld aus.');
      }
      if (snap.context.fieldErrors.email) {
        // The server's 400 shows at the e-mail field, in German.
        screen.getByText('Das Format ist nicht gültig.');
      }
    },
    '#recordForm.saving': (_, r) => {
      r.saves += 1;
      const submit = screen.getByRole('button', { name: 'Wird gespeichert …' });
      expect(submit.getAttribute('aria-busy')).toBe('true');
      // Only the changed field goes out.
      expect(r.save.latest().input).toEqual({ id: 'c1', body: { name: 'Mia Maier' } });
      expect(r.save.calls).toHaveLength(r.saves);
    },
    '#recordForm.conflict': () => {
      expect(screen.getByRole('alert').textContent).toContain('E-Mail-Adresse ist bereits');
      expect(screen.getByRole('textbox', { name: 'Name' }).matches(':disabled')).toBe(true);
    },
    '#recordForm.failed': () => {
      expect(screen.getByRole('alert').textContent).toContain('Keine Verbindung');
      screen.getByRole('button', { name: 'Erneut versuchen' });
    },
    '#recordForm.done': (_, r) => {
      expect(r.saved).toHaveLength(1);
    },
  },
});

describe('record form machine, rules', () => {
  it('bad input is named at the field and sends nothing', async () => {
    const { actor, save } = startForm(null, { name: '', email: 'kein-at' });
    actor.send({ type: 'form.submit' });
    await flush();
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.fieldErrors).toEqual({
      name: 'value_missing',
      email: 'invalid_email',
    });
    expect(save.calls).toHaveLength(0);
    // Typing in a field clears its error only.
    actor.send({ type: 'form.change', field: 'name', value: 'Mia' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ email: 'invalid_email' });
  });

  it('a new record sends the whole parsed body', async () => {
    const { actor, save, saved } = startForm(null, { name: ' Mia ', email: '' });
    actor.send({ type: 'form.submit' });
    await flush();
    expect(save.calls).toEqual([
      { id: null, body: { name: 'Mia', email: null }, idempotencyKey: expect.any(String) },
    ]);
    save.latest().resolve({ id: 'new' });
    await flush();
    expect(actor.getSnapshot().status).toBe('done');
    expect(actor.getSnapshot().output).toEqual({ record: { id: 'new' } });
    expect(saved).toEqual([{ unchanged: false }]);
  });

  it('saving an unchanged record sends nothing', async () => {
    const { actor, load, save, saved } = startForm('c1');
    load.latest().resolve(LOADED);
    await flush();
    actor.send({ type: 'form.change', field: 'name', value: ' Mia' });
    actor.send({ type: 'form.submit' });
    await flush();
    expect(save.calls).toHaveLength(0);
    expect(saved).toEqual([{ unchanged: true }]);
  });

  it('a 400 without a known field is a failure with retry, not a silent stop', async () => {
    const { actor, save } = startForm(null, { name: 'Mia', email: '' });
    actor.send({ type: 'form.submit' });
    await flush();
    save.latest().reject(problem(400, 'validation_failed', [{ field: 'unknownThing', code: 'x' }]));
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
    actor.send({ type: 'form.retry' });
    await flush();
    expect(save.calls).toHaveLength(2);
  });

  it('nested server fields land on their top-level field', async () => {
    const { actor, save } = startForm(null, { name: 'Mia', email: '' });
    actor.send({ type: 'form.submit' });
    await flush();
    save
      .latest()
      .reject(
        problem(400, 'validation_failed', [
          { field: 'body.email.address', code: 'value_invalid_format' },
        ]),
      );
    await flush();
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ email: 'value_invalid_format' });
  });
});
