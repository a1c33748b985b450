import { assign, fromPromise, setup } from 'xstate';
import { z } from 'zod';
import { SUPPORT_CATEGORIES } from '../../shared/contract/enums';
import type { components } from '../../shared/contract/product';
import { errorCodeOf, notProvided } from './shared/failures';

/**
 * The support form (`/support`, operation sendSupportMessage): editing → submitting → sent,
 * or failed with retry. Input is checked with the contract's limits before sending; a 400 from
 * the server puts its field errors back on the form.
 */
export type SupportCategory = components['schemas']['SupportCategory'];
export type SupportRequest = components['schemas']['SupportRequest'];

export const supportRequestSchema = z.object({
  category: z.enum(SUPPORT_CATEGORIES, { error: 'value_missing' }),
  subject: z
    .string()
    .trim()
    .min(1, { error: 'value_missing' })
    .max(200, { error: 'value_too_long' }),
  message: z
    .string()
    .trim()
    .min(1, { error: 'value_missing' })
    .max(5000, { error: 'value_too_long' }),
});

export type SupportField = 'category' | 'subject' | 'message';

export interface SupportDraft {
  category: SupportCategory | '';
  subject: string;
  message: string;
}

export interface SupportContext {
  draft: SupportDraft;
  /** Field → error code (`value_missing`, `value_too_long`, …). */
  fieldErrors: Partial<Record<SupportField, string>>;
  /** Why the last send failed (`network_error`, `rate_limited`, …). */
  error: { code: string } | null;
  /** Id of the stored request once sent. */
  sentId: string | null;
}

export type SupportEvent =
  | { type: 'form.change'; field: SupportField; value: string }
  | { type: 'form.submit' }
  | { type: 'form.retry' }
  | { type: 'form.edit' }
  | { type: 'form.reset' };

const emptyDraft = (): SupportDraft => ({ category: '', subject: '', message: '' });

function fieldErrorsOf(draft: SupportDraft): SupportContext['fieldErrors'] {
  const result = supportRequestSchema.safeParse(draft);
  if (result.success) return {};
  const errors: SupportContext['fieldErrors'] = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as SupportField;
    errors[field] ??= issue.message;
  }
  return errors;
}

const FIELDS: readonly SupportField[] = ['category', 'subject', 'message'];

/** Field errors of a 400 answer (`errors[].field` is `subject`, `body.subject`, …). */
function serverFieldErrors(error: unknown): SupportContext['fieldErrors'] {
  const list = (error as { fieldErrors?: Array<{ field: string; code: string }> }).fieldErrors;
  const errors: SupportContext['fieldErrors'] = {};
  for (const e of list ?? []) {
    const field = FIELDS.find((f) => e.field === f || e.field.endsWith(`.${f}`));
    if (field) errors[field] ??= e.code;
  }
  return errors;
}

export const supportMachine = setup({
  types: {
    context: {} as SupportContext,
    events: {} as SupportEvent,
    tags: {} as 'busy' | 'error' | 'sent',
  },
  actors: {
    sendSupportMessage: fromPromise<{ id: string }, SupportRequest>(
      notProvided('support', 'sendSupportMessage'),
    ),
  },
  actions: {
    /** Tells the person the request went out (the app shows a toast). */
    notifySent: () => undefined,
  },
  guards: {
    draftIsValid: ({ context }) => supportRequestSchema.safeParse(context.draft).success,
    hasFieldErrors: ({ event }) =>
      'error' in event && Object.keys(serverFieldErrors(event.error)).length > 0,
  },
}).createMachine({
  id: 'support',
  context: { draft: emptyDraft(), fieldErrors: {}, error: null, sentId: null },
  initial: 'editing',
  states: {
    editing: {
      on: {
        'form.change': {
          actions: assign(({ context, event }) => {
            const { [event.field]: _gone, ...fieldErrors } = context.fieldErrors;
            return { draft: { ...context.draft, [event.field]: event.value }, fieldErrors };
          }),
        },
        'form.submit': [
          { guard: 'draftIsValid', target: 'submitting' },
          { actions: assign({ fieldErrors: ({ context }) => fieldErrorsOf(context.draft) }) },
        ],
      },
    },
    submitting: {
      tags: ['busy'],
      entry: assign({ error: null, fieldErrors: {} }),
      invoke: {
        id: 'sendSupportMessage',
        src: 'sendSupportMessage',
        input: ({ context }) => supportRequestSchema.parse(context.draft),
        onDone: {
          target: 'sent',
          actions: assign({ sentId: ({ event }) => event.output.id }),
        },
        onError: [
          {
            guard: 'hasFieldErrors',
            target: 'editing',
            actions: assign({ fieldErrors: ({ event }) => serverFieldErrors(event.error) }),
          },
          {
            target: 'failed',
            actions: assign({ error: ({ event }) => ({ code: errorCodeOf(event.error) }) }),
          },
        ],
      },
    },
    failed: {
      tags: ['error'],
      on: {
        'form.retry': { target: 'submitting' },
        'form.edit': { target: 'editing' },
      },
    },
    sent: {
      tags: ['sent'],
      entry: 'notifySent',
      on: {
        'form.reset': {
          target: 'editing',
          actions: assign({ draft: emptyDraft, fieldErrors: {}, error: null, sentId: null }),
        },
      },
    },
  },
});
