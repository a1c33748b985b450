import { assign, fromPromise, setup } from 'xstate';
import type { z } from 'zod';
import type { FieldErrors, FormSchema, FormValue, FormValues } from '../forms/form-schema';
import { machineErrorOf } from './shared/failures';
import { keyFor, type WriteKey } from './shared/write-key';

/**
 * The one record form every staff form uses (client, appointment, coach, user …): load the
 * record (when editing), edit, validate with the screen's zod schema, save, and the outcomes
 * of saving: field errors of a 400 at their fields, a 409 conflict, another failure with retry,
 * or done.
 *
 * Values are what the inputs hold (text and checkboxes). The screen's schema turns them into
 * the request body and names bad input with stable codes (`value_missing`, `value_too_long`,
 * …) that the view translates. When editing, only the fields that differ from the loaded
 * record are sent; a form saved without a change sends nothing.
 *
 * Actors per screen, supplied with `.provide()`: `loadRecord` (id → values and the record) and
 * `saveRecord` (id or null for a new record, body → the saved record).
 */

export interface LoadedRecord {
  values: FormValues;
  record: unknown;
}

export interface SaveRequest {
  /** null: create. */
  id: string | null;
  body: Record<string, unknown>;
  /**
   * A create's Idempotency-Key: the same for every try of the same body (a retry after a 503
   * or a lost answer creates nothing twice), a new one once the body differs.
   */
  idempotencyKey?: string;
}

export interface RecordFormInput {
  /** The record to edit; null for a new one. */
  id: string | null;
  schema: FormSchema;
  /** Starting values of a new record. */
  values?: FormValues;
}

export interface RecordFormContext {
  id: string | null;
  schema: FormSchema;
  values: FormValues;
  /** The values as loaded (editing), to send only what changed. */
  loaded: FormValues | null;
  record: unknown;
  fieldErrors: FieldErrors;
  error: { code: string; status?: number } | null;
  /**
   * The code of the last 409, kept while editing again, so a screen can offer what that
   * conflict calls for (the appointment form: moving outside the coach's availability).
   */
  lastConflict: string | null;
  /** Saved without a change (nothing was sent). */
  unchanged: boolean;
  /** A create's Idempotency-Key and the body it went out with (SaveRequest). */
  idempotency: WriteKey | null;
}

export type RecordFormEvent =
  | { type: 'form.change'; field: string; value: FormValue }
  | { type: 'form.submit' }
  | { type: 'form.retry' }
  | { type: 'form.edit' }
  /** After a conflict: load the record as it is now, then edit again. */
  | { type: 'form.reload' };

/** Zod's issue kinds as the codes the API uses in `errors[].code`. */
const ISSUE_CODES: Record<string, string> = {
  too_small: 'value_too_short',
  too_big: 'value_too_long',
  invalid_format: 'value_invalid_format',
  invalid_type: 'value_invalid',
  invalid_value: 'value_not_allowed',
};

/** Field errors of a zod result: the first issue per field, as a code. */
export function zodFieldErrors(error: z.ZodError): FieldErrors {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? '');
    // A schema names its own codes as messages (`{ error: 'value_missing' }`).
    const code = /^[a-z][a-z_]*$/.test(issue.message)
      ? issue.message
      : (ISSUE_CODES[issue.code] ?? 'value_invalid');
    errors[field] ??= code;
  }
  return errors;
}

/** Field errors of a 400 answer (`errors[].field` is `email`, `contactPerson.email`, …). */
export function serverFieldErrors(error: unknown, values: FormValues): FieldErrors {
  const list = (error as { fieldErrors?: Array<{ field: string; code: string }> } | undefined)
    ?.fieldErrors;
  const errors: Record<string, string> = {};
  for (const e of list ?? []) {
    const parts = e.field.split(/[./]/).filter(Boolean);
    if (parts[0] === 'body') parts.shift();
    // The whole path when the form has such a field, else its first part.
    const field = parts.join('.') in values ? parts.join('.') : parts[0];
    if (field !== undefined && field in values) errors[field] ??= e.code;
  }
  return errors;
}

const statusOf = (error: unknown) => (error as { status?: unknown } | undefined)?.status;

/** The request body: everything for a new record, the changed fields of an existing one. */
export function bodyOf(context: Pick<RecordFormContext, 'schema' | 'values' | 'loaded'>) {
  const body = context.schema.parse(context.values);
  if (context.loaded === null) return body;
  const before = context.schema.safeParse(context.loaded);
  if (!before.success) return body;
  const changed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (JSON.stringify(value) !== JSON.stringify(before.data[key])) changed[key] = value;
  }
  return changed;
}

export const recordFormMachine = setup({
  types: {
    context: {} as RecordFormContext,
    events: {} as RecordFormEvent,
    input: {} as RecordFormInput,
    output: {} as { record: unknown },
    tags: {} as
      'busy' | 'error' | 'conflict' | 'done' | 'loadError' | 'loading' | 'saveError' | 'saving',
  },
  actors: {
    loadRecord: fromPromise<LoadedRecord, { id: string }>(() => {
      throw new Error('record-form machine: provide the "loadRecord" actor');
    }),
    saveRecord: fromPromise<unknown, SaveRequest>(() => {
      throw new Error('record-form machine: provide the "saveRecord" actor');
    }),
  },
  actions: {
    /** Tells the person it was saved (the page shows a toast and moves on). */
    notifySaved: (_, _params: { record: unknown; unchanged: boolean }) => undefined,
    /**
     * A create keeps its Idempotency-Key while the body stays the same (submitted again after
     * a failure, or retried); a changed body is another request and gets a new key.
     */
    keyCreate: assign({
      idempotency: ({ context }) =>
        context.id === null ? keyFor(context.idempotency, bodyOf(context)) : null,
    }),
  },
  guards: {
    isNew: ({ context }) => context.id === null,
    isValid: ({ context }) => context.schema.safeParse(context.values).success,
    validButUnchanged: ({ context }) =>
      context.schema.safeParse(context.values).success && Object.keys(bodyOf(context)).length === 0,
    hasFieldErrors: ({ context, event }) =>
      'error' in event &&
      statusOf(event.error) === 400 &&
      Object.keys(serverFieldErrors(event.error, context.values)).length > 0,
    isConflict: ({ event }) => 'error' in event && statusOf(event.error) === 409,
  },
}).createMachine({
  id: 'recordForm',
  context: ({ input }) => ({
    id: input.id,
    schema: input.schema,
    values: input.values ?? {},
    loaded: null,
    record: null,
    fieldErrors: {},
    error: null,
    lastConflict: null,
    unchanged: false,
    idempotency: null,
  }),
  initial: 'starting',
  output: ({ context }) => ({ record: context.record }),
  states: {
    starting: {
      tags: ['loading'],
      always: [{ guard: 'isNew', target: 'editing' }, { target: 'loading' }],
    },
    loading: {
      tags: ['busy', 'loading'],
      invoke: {
        id: 'loadRecord',
        src: 'loadRecord',
        input: ({ context }) => ({ id: context.id! }),
        onDone: {
          target: 'editing',
          actions: assign(({ event }) => ({
            values: event.output.values,
            loaded: event.output.values,
            record: event.output.record,
            fieldErrors: {},
            error: null,
            lastConflict: null,
          })),
        },
        onError: {
          target: 'loadFailed',
          actions: assign({ error: ({ event }) => machineErrorOf(event.error) }),
        },
      },
    },
    /** The record could not be loaded (not found, network …). */
    loadFailed: { tags: ['error', 'loadError'], on: { 'form.retry': 'loading' } },
    editing: {
      on: {
        'form.change': {
          actions: assign(({ context, event }) => {
            const { [event.field]: _gone, ...fieldErrors } = context.fieldErrors;
            return { values: { ...context.values, [event.field]: event.value }, fieldErrors };
          }),
        },
        'form.submit': [
          {
            guard: 'validButUnchanged',
            target: 'done',
            actions: assign({ fieldErrors: {}, error: null, unchanged: true }),
          },
          {
            guard: 'isValid',
            target: 'saving',
            actions: [assign({ fieldErrors: {}, error: null }), 'keyCreate'],
          },
          {
            actions: assign({
              fieldErrors: ({ context }) => {
                const result = context.schema.safeParse(context.values);
                return result.success ? {} : zodFieldErrors(result.error);
              },
            }),
          },
        ],
      },
    },
    saving: {
      tags: ['busy', 'saving'],
      invoke: {
        id: 'saveRecord',
        src: 'saveRecord',
        input: ({ context }): SaveRequest => ({
          id: context.id,
          body: bodyOf(context),
          ...(context.id === null && context.idempotency
            ? { idempotencyKey: context.idempotency.key }
            : {}),
        }),
        onDone: {
          target: 'done',
          actions: assign({ record: ({ event }) => event.output, unchanged: false }),
        },
        onError: [
          {
            guard: 'hasFieldErrors',
            target: 'editing',
            actions: assign({
              fieldErrors: ({ context, event }) => serverFieldErrors(event.error, context.values),
            }),
          },
          {
            guard: 'isConflict',
            target: 'conflict',
            actions: assign(({ event }) => {
              const error = machineErrorOf(event.error);
              return { error, lastConflict: error.code };
            }),
          },
          {
            target: 'failed',
            actions: assign({ error: ({ event }) => machineErrorOf(event.error) }),
          },
        ],
      },
    },
    /** 409: the record or another one stands in the way (e-mail taken, slot taken …). */
    conflict: {
      tags: ['error', 'conflict'],
      on: {
        'form.edit': { target: 'editing', actions: assign({ error: null }) },
        'form.reload': { guard: ({ context }) => context.id !== null, target: 'loading' },
      },
    },
    failed: {
      tags: ['error', 'saveError'],
      on: {
        'form.retry': 'saving',
        'form.edit': { target: 'editing', actions: assign({ error: null }) },
      },
    },
    done: {
      tags: ['done'],
      type: 'final',
      entry: {
        type: 'notifySaved',
        params: ({ context }) => ({ record: context.record, unchanged: context.unchanged }),
      },
    },
  },
});
