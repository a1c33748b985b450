import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise, type EventObject, type SnapshotFrom } from 'xstate';
import { getStateNodes, TestModel, type StatePath } from 'xstate/graph';
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

/**
 * The generic record form: model-based paths from the real machine played against the form
 * frame every staff form renders, plus the rules (validation with zod before any request, 400
 * field errors at their fields, only changed fields sent, 409 as a conflict).
 */

type FormSnapshot = SnapshotFrom<typeof recordFormMachine>;

const schema = z.object({
  name: z.string().trim().min(1, { error: 'value_missing' }).max(20, { error: 'value_too_long' }),
  email: z
    .string()
    .trim()
    .refine((s) => s === '' || /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(s), { error: 'invalid_email' })
    .transform((s) => (s === '' ? null : s)),
});

const LOADED: LoadedRecord = { values: { name: 'Mia', email: '' }, record: { id: 'c1', name: 'Mia' } };
const NETWORK = Object.assign(new Error('offline'), { code: 'network_error' });
const problem = (status: number, code: string, errors: Array<{ field: string; code: string }> = []) =>
  new ApiError({ status, code, fieldErrors: errors });

function fake<I, O>() {
  const calls: Array<{ input: I; resolve: (v: O) => void; reject: (e: unknown) => void }> = [];
  return {
    calls,
    logic: fromPromise<O, I>(
      ({ input }) => new Promise<O>((resolve, reject) => calls.push({ input, resolve, reject })),
    ),
    latest: () => calls.at(-1)!,
  };
}

const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

function startForm(id: string | null, values?: FormValues) {
  const load = fake<{ id: string }, LoadedRecord>();
  const save = fake<SaveRequest, unknown>();
  const saved: Array<{ unchanged: boolean }> = [];
  const actor = createActor(
    recordFormMachine.provide({
      actors: { loadRecord: load.logic, saveRecord: save.logic },
      actions: { notifySaved: (_, params) => void saved.push({ unchanged: params.unchanged }) },
    }),
    { input: { id, schema, ...(values ? { values } : {}) } },
  ).start();
  return { actor, load, save, saved };
}

let i18n: Awaited<ReturnType<typeof createI18n>>['i18n'];
beforeAll(async () => {
  const setup = createI18n({ lng: 'de', resources: readLocales('de', 'en'), debug: false });
  await setup.ready;
  i18n = setup.i18n;
});

const summary: Array<Record<string, unknown>> = [];
afterAll(() => {
  for (const line of summary) console.log(JSON.stringify(line));
});

describe('record form machine, model-based', () => {
  const EVENTS: EventObject[] = [
    { type: 'xstate.done.actor.loadRecord', output: LOADED } as EventObject,
    { type: 'xstate.error.actor.loadRecord', error: NETWORK } as EventObject,
    { type: 'xstate.done.actor.saveRecord', output: { id: 'c1' } } as EventObject,
    { type: 'xstate.error.actor.saveRecord', error: problem(400, 'validation_failed', [{ field: 'email', code: 'value_invalid_format' }]) } as EventObject,
    { type: 'xstate.error.actor.saveRecord', error: problem(409, 'email_taken') } as EventObject,
    { type: 'xstate.error.actor.saveRecord', error: NETWORK } as EventObject,
    { type: 'form.change', field: 'name', value: 'Mia Maier' } as EventObject,
    { type: 'form.change', field: 'name', value: '' } as EventObject,
    { type: 'form.submit' },
    { type: 'form.retry' },
    { type: 'form.edit' },
    { type: 'form.reload' },
  ];

  const model = new TestModel(recordFormMachine, {
    input: { id: 'c1', schema },
    events: EVENTS as never,
    stateMatcher: ((state: { _nodes: unknown[] }, key: string) =>
      state._nodes.includes(recordFormMachine.getStateNodeById(key))) as never,
    serializeState: (s) => {
      const snap = s as FormSnapshot;
      return JSON.stringify({
        value: snap.value,
        values: snap.context.values,
        errors: snap.context.fieldErrors,
        error: snap.context.error?.code ?? null,
      });
    },
  });
  const paths = model.getShortestPaths();

  it('reaches every state of the machine', () => {
    const expected = getStateNodes(recordFormMachine)
      .map((n) => n.id)
      .filter((id) => id !== 'recordForm.starting');
    const reached = new Set<string>();
    for (const path of paths) {
      for (const snap of [path.state, ...path.steps.map((s) => s.state)]) {
        for (const node of (snap as unknown as { _nodes: Array<{ id: string }> })._nodes) reached.add(node.id);
      }
    }
    expect(expected.filter((id) => !reached.has(id))).toEqual([]);
    summary.push({ machine: 'recordForm', states: expected.length, paths: paths.length });
  });

  const name = (path: StatePath<any, EventObject>) =>
    path.steps.map((s) => s.event.type.replace('xstate.', '')).join(' → ') || '(start)';

  it.each(paths.map((p) => [name(p), p] as const))('%s', async (_name, path) => {
    const { actor, load, save, saved } = startForm('c1');
    const user = userEvent.setup();
    const view = render(
      <I18nextProvider i18n={i18n}>
        <RecordForm actorRef={actor} label="Klient:in bearbeiten" submitLabel="Speichern">
          <TextField actorRef={actor} name="name" label="Name" />
          <TextField actorRef={actor} name="email" label="E-Mail" type="email" />
        </RecordForm>
      </I18nextProvider>,
    );
    const settle = async (fn: () => void) => {
      await act(async () => {
        fn();
        await flush();
      });
    };
    const click = (label: string) => act(() => user.click(screen.getByRole('button', { name: label })));
    let saves = 0;

    await model.testPath(path, {
      events: {
        'xstate.done.actor.loadRecord': ({ event }: { event: EventObject }) =>
          settle(() => load.latest().resolve((event as unknown as { output: LoadedRecord }).output)),
        'xstate.error.actor.loadRecord': ({ event }: { event: EventObject }) =>
          settle(() => load.latest().reject((event as unknown as { error: unknown }).error)),
        'xstate.done.actor.saveRecord': ({ event }: { event: EventObject }) =>
          settle(() => save.latest().resolve((event as unknown as { output: unknown }).output)),
        'xstate.error.actor.saveRecord': ({ event }: { event: EventObject }) =>
          settle(() => save.latest().reject((event as unknown as { error: unknown }).error)),
        'form.change': async ({ event }: { event: EventObject }) => {
          const { value } = event as unknown as { value: string };
          const input = screen.getByRole('textbox', { name: 'Name' });
          await act(async () => {
            await user.clear(input);
            if (value) await user.type(input, value);
          });
        },
        'form.submit': () => click('Speichern'),
        'form.retry': () => click('Erneut versuchen'),
        'form.edit': () => click('Weiter bearbeiten'),
        'form.reload': () => click('Aktuellen Stand laden'),
      } as never,
      states: {
        '#recordForm.loading': () => {
          expect(screen.getByRole('status').textContent).toContain('Wird geladen');
          expect(screen.queryByRole('form')).toBeNull();
        },
        '#recordForm.loadFailed': () => {
          expect(screen.getByRole('alert').textContent).toContain('Keine Verbindung');
          screen.getByRole('button', { name: 'Erneut versuchen' });
        },
        '#recordForm.editing': () => {
          const snap = actor.getSnapshot();
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
        '#recordForm.saving': () => {
          saves += 1;
          const submit = screen.getByRole('button', { name: 'Wird gespeichert …' });
          expect(submit.getAttribute('aria-busy')).toBe('true');
          // Only the changed field goes out.
          expect(save.latest().input).toEqual({ id: 'c1', body: { name: 'Mia Maier' } });
          expect(save.calls).toHaveLength(saves);
        },
        '#recordForm.conflict': () => {
          expect(screen.getByRole('alert').textContent).toContain('E-Mail-Adresse ist bereits');
          expect(screen.getByRole('textbox', { name: 'Name' }).matches(':disabled')).toBe(true);
        },
        '#recordForm.failed': () => {
          expect(screen.getByRole('alert').textContent).toContain('Keine Verbindung');
          screen.getByRole('button', { name: 'Erneut versuchen' });
        },
        '#recordForm.done': () => {
          expect(saved).toHaveLength(1);
        },
      },
    });
    view.unmount();
    actor.stop();
  });
});

describe('record form machine, rules', () => {
  it('bad input is named at the field and sends nothing', async () => {
    const { actor, save } = startForm(null, { name: '', email: 'kein-at' });
    actor.send({ type: 'form.submit' });
    await flush();
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ name: 'value_missing', email: 'invalid_email' });
    expect(save.calls).toHaveLength(0);
    // Typing in a field clears its error only.
    actor.send({ type: 'form.change', field: 'name', value: 'Mia' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ email: 'invalid_email' });
  });

  it('a new record sends the whole parsed body', async () => {
    const { actor, save, saved } = startForm(null, { name: ' Mia ', email: '' });
    actor.send({ type: 'form.submit' });
    await flush();
    expect(save.calls.map((c) => c.input)).toEqual([{ id: null, body: { name: 'Mia', email: null } }]);
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
    save.latest().reject(problem(400, 'validation_failed', [{ field: 'body.email.address', code: 'value_invalid_format' }]));
    await flush();
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ email: 'value_invalid_format' });
  });
});
