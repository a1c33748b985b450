import { assign, fromCallback, fromPromise, setup, type AnyActorRef } from 'xstate';
import { toClientError, type ClientError } from '../lib/client-slots';
import {
  emptySignupForm,
  OTHER_INSURER,
  type FieldErrors,
  type SignupFormValues,
  type SignupRequestBody,
} from '../forms/client-signup.form';
import type { SignupCheck } from '../forms/client-signup.validation';
import { notProvided as notProvidedBy } from './shared/failures';

/**
 * `/client-signup`: a new client fills in the form, gets an account through the
 * sign-in widget's registration flow (one-time code by e-mail), and the account is linked to
 * the new client record.
 *
 * editing → validating (the form's rules, zod/mini: loaded when the form is first sent, not with
 * the page, bench/web.ts) → checking (`POST /client/signup?validateOnly`: bad input is found before
 * any account exists; a known address answers the same and its client gets a sign-in link by
 * e-mail, so the page never says whether someone is a client) → registering (the widget's flow machine, run by the page;
 * `watchRegistration` types the form's address into it and reports the session) → linking
 * (`POST /client/signup` with the new session's token: client record and link in one
 * transaction) → activating (the app session logs in again and is now active) → done.
 * Someone signed in already (an account without a client record) skips the registration.
 * A failed link keeps the account and offers the link step again (`link.retry`).
 */

export interface SignupInput {
  /** `?campaign=…` of the link that brought the person here. */
  campaign: string | null;
  /** The Berlin year, for the year-of-birth check. */
  currentYear: number;
  /** Values to start with (the address from a sign-in link's `?email=`, tests). */
  values?: Partial<SignupFormValues>;
  /**
   * The token of a person already signed in without a client record (they signed in first,
   * saw "not a client yet" and came here): the account exists, so the form links it directly.
   */
  sessionToken?: string | null;
}

export interface SignupContext {
  values: SignupFormValues;
  errors: FieldErrors;
  campaign: string | null;
  currentYear: number;
  request: SignupRequestBody | null;
  /** The running registration flow of the widget (an authFlowMachine actor). */
  flow: AnyActorRef | null;
  token: string | null;
  error: ClientError | null;
  /** The practice's insurers by name; null while loading; [] when none could be loaded (then the name is typed). */
  insurers: string[] | null;
}

export type SignupEvent =
  | { type: 'field.change'; field: keyof SignupFormValues; value: string | boolean }
  | { type: 'form.submit' }
  | { type: 'form.edit' }
  | { type: 'registration.attach'; flow: AnyActorRef }
  | { type: 'registration.succeeded'; token: string }
  | { type: 'link.retry' };

export interface ValidateInput {
  values: SignupFormValues;
  currentYear: number;
  campaign: string | null;
}

export interface LinkInput {
  request: SignupRequestBody;
  token: string;
}

const notProvided = (actor: string) => notProvidedBy('client-signup', actor);

/** The answer of `validateForm` (the guard and actions below run on its done event only). */
const outputOf = (event: unknown) => (event as { output: SignupCheck }).output;

/** The widget's flow snapshot as far as this machine reads it. */
interface FlowView {
  context: {
    response: { actions?: Record<string, unknown> } | null;
    session: { token: string | null };
  };
  matches(state: Record<string, string>): boolean;
  hasTag(tag: string): boolean;
}

/**
 * Watches the registration flow: types the form's address into `registration_init` once
 * (the person entered it in the form already), and reports the new session's token when the
 * flow succeeds.
 */
export const watchRegistrationLogic = fromCallback<
  { type: 'noop' },
  { flow: AnyActorRef; email: string }
>(({ input, sendBack }) => {
  let sent = false;
  let reported = false;
  const look = (snapshot: FlowView) => {
    if (
      !sent &&
      snapshot.matches({ registration_init: 'idle' }) &&
      snapshot.context.response?.actions?.register_login_identifier
    ) {
      sent = true;
      input.flow.send({
        type: 'action.run',
        name: 'register_login_identifier',
        inputs: { email: input.email },
      });
    }
    if (!reported && snapshot.hasTag('succeeded') && snapshot.context.session.token) {
      reported = true;
      sendBack({ type: 'registration.succeeded', token: snapshot.context.session.token });
    }
  };
  look(input.flow.getSnapshot() as FlowView);
  const subscription = input.flow.subscribe((snapshot) => look(snapshot as FlowView));
  return () => subscription.unsubscribe();
});

export const clientSignupMachine = setup({
  types: {
    context: {} as SignupContext,
    events: {} as SignupEvent,
    input: {} as SignupInput,
    tags: {} as
      'busy' | 'error' | 'invalid' | 'done' | 'formError' | 'linkError' | 'linking' | 'registering',
  },
  actors: {
    /** `POST /client/signup?validateOnly=true` (no token). */
    checkSignup: fromPromise<void, SignupRequestBody>(notProvided('checkSignup')),
    /** `POST /client/signup` with `Authorization: Bearer <token>`. */
    linkSignup: fromPromise<{ clientId: string }, LinkInput>(notProvided('linkSignup')),
    /** `GET /client/signup/insurers`: the catalogue the form offers. */
    loadInsurers: fromPromise<string[]>(notProvided('loadInsurers')),
    /** The app session logs in again (`POST /login`) and resolves once it is active. */
    refreshSession: fromPromise<void>(notProvided('refreshSession')),
    watchRegistration: watchRegistrationLogic,
    /** The form's rules (src/forms/client-signup.validation.ts), in their own chunk. */
    validateForm: fromPromise<SignupCheck, ValidateInput>(async ({ input }) =>
      (await import('../forms/client-signup.validation')).checkSignupForm(input),
    ),
  },
  guards: {
    formValid: ({ event }) => outputOf(event).ok,
    signedIn: ({ context }) => context.token !== null,
    fieldsRejected: ({ event }) =>
      'error' in event && toClientError((event as { error: unknown }).error).fields !== undefined,
  },
  actions: {
    showFieldErrors: assign({
      errors: ({ event }) => {
        const result = outputOf(event);
        return result.ok ? {} : result.errors;
      },
    }),
    prepareRequest: assign({
      errors: {},
      error: null,
      request: ({ event }) => {
        const result = outputOf(event);
        return result.ok ? result.request : null;
      },
    }),
  },
}).createMachine({
  id: 'clientSignup',
  context: ({ input }) => ({
    values: { ...emptySignupForm(), ...input.values },
    errors: {},
    campaign: input.campaign,
    currentYear: input.currentYear,
    request: null,
    flow: null,
    token: input.sessionToken ?? null,
    error: null,
    insurers: null,
  }),
  // Loaded beside the whole flow: a failure only means the insurer's name is typed.
  invoke: {
    src: 'loadInsurers',
    onDone: { actions: assign({ insurers: ({ event }) => event.output }) },
    onError: { actions: assign({ insurers: [] }) },
  },
  initial: 'editing',
  states: {
    editing: {
      initial: 'clean',
      on: {
        'field.change': {
          actions: assign({
            values: ({ context, event }) => ({
              ...context.values,
              [event.field]: event.value,
              // A name typed after "andere" does not outlive that choice.
              ...(event.field === 'insurerChoice' && event.value !== OTHER_INSURER
                ? { insurer: '' }
                : {}),
            }),
            errors: ({ context, event }) => {
              const { [event.field]: _gone, ...rest } = context.errors;
              return rest;
            },
          }),
        },
        'form.submit': '#clientSignup.validating',
      },
      states: {
        clean: {},
        /** Fields carry German messages; nothing was sent. */
        invalid: { tags: ['invalid'] },
        /** The server refused (fields named, or another problem). */
        failed: { tags: ['error', 'formError'] },
      },
    },
    validating: {
      tags: ['busy'],
      invoke: {
        id: 'validateForm',
        src: 'validateForm',
        input: ({ context }) => ({
          values: context.values,
          currentYear: context.currentYear,
          campaign: context.campaign,
        }),
        onDone: [
          { guard: 'formValid', target: 'checking', actions: 'prepareRequest' },
          { target: 'editing.invalid', actions: 'showFieldErrors' },
        ],
        // The rules' code did not load (offline): the form says so, nothing was sent.
        onError: {
          target: 'editing.failed',
          actions: assign({ error: ({ event }) => toClientError(event.error) }),
        },
      },
    },
    checking: {
      tags: ['busy'],
      invoke: {
        id: 'checkSignup',
        src: 'checkSignup',
        input: ({ context }) => context.request!,
        onDone: [{ guard: 'signedIn', target: 'linking' }, { target: 'registering' }],
        onError: [
          {
            guard: 'fieldsRejected',
            target: 'editing.invalid',
            actions: assign({
              errors: ({ event }) =>
                Object.fromEntries(
                  Object.keys(toClientError(event.error).fields ?? {}).map((field) => [
                    field,
                    'validation.serverRejected',
                  ]),
                ),
            }),
          },
          {
            target: 'editing.failed',
            actions: assign({ error: ({ event }) => toClientError(event.error) }),
          },
        ],
      },
    },
    registering: {
      tags: ['registering'],
      initial: 'starting',
      on: { 'form.edit': { target: 'editing', actions: assign({ flow: null }) } },
      states: {
        /** The page mounts the widget and attaches its flow actor. */
        starting: {
          on: {
            'registration.attach': {
              target: 'running',
              actions: assign({ flow: ({ event }) => event.flow }),
            },
          },
        },
        running: {
          invoke: {
            src: 'watchRegistration',
            input: ({ context }) => ({ flow: context.flow!, email: context.request!.email }),
          },
          on: {
            'registration.succeeded': {
              target: '#clientSignup.linking',
              actions: assign({ token: ({ event }) => event.token }),
            },
          },
        },
      },
    },
    linking: {
      tags: ['busy', 'linking'],
      invoke: {
        id: 'linkSignup',
        src: 'linkSignup',
        input: ({ context }) => ({ request: context.request!, token: context.token! }),
        onDone: 'activating',
        onError: {
          target: 'linkFailed',
          actions: assign({ error: ({ event }) => toClientError(event.error) }),
        },
      },
    },
    /** The account exists, the client record does not: the link step can be tried again. */
    linkFailed: {
      tags: ['error', 'linkError'],
      on: { 'link.retry': { target: 'linking', actions: assign({ error: null }) } },
    },
    activating: {
      tags: ['busy', 'linking'],
      invoke: { id: 'refreshSession', src: 'refreshSession', onDone: 'done', onError: 'done' },
    },
    /** The page goes on to the appointment selection. */
    done: { tags: ['linking', 'done'], type: 'final' },
  },
});
