import {
  and,
  assign,
  emit,
  enqueueActions,
  fromCallback,
  fromPromise,
  not,
  setup,
  type AnyEventObject,
} from 'xstate';
import {
  SERVER_STATES,
  type ClientCapabilities,
  type FlowName,
  type FlowReply,
  type FlowResponse,
  type LastLogin,
  type ServerStateName,
  type ThirdPartyReturn,
  type WebAuthnOptions,
  type WidgetError,
} from './types';
import { validateAction, validateCredentialName, type FieldErrorCode } from './validation';
import { capabilityInputs } from './capabilities';
import { notProvided as notProvidedBy } from '../shared/failures';

/**
 * The sign-in widget's flow machine (the specification's screens, states, validation rules and
 * error catalogue; protocol in docs/auth-flow-protocol.md). It mirrors the server: every server
 * state (and preflight) is a state of this machine with the same name, and the server's answer
 * decides the next state. An answer naming a state the machine does not know ends in
 * `handlerNotFound`.
 *
 * Inside each server state the `form` part is `init` (decides what happens on entry: an
 * automatic step, a countdown, or waiting), `idle` (the screen waits for the person),
 * `coolingDown` (429: the rate-limited action is refused while `retrySeconds` counts down)
 * and `submitting` (one request in flight, 13 s limit). Automatic steps of the protocol
 * (preflight, passkey prompts, third-party redirect and return) are states with actors.
 *
 * Side effects are actors declared here as stubs; `createAuthFlowActors` supplies the real ones
 * and tests supply fakes with `.provide()`.
 */

export interface AuthFlowInput {
  flowName: FlowName;
}

export interface PendingAction {
  name: string;
  inputs: Record<string, unknown>;
}

export interface RenameTarget {
  kind: 'passkey' | 'security_key';
  id: string;
}

export interface AuthFlowContext {
  flowName: FlowName;
  /** The server's latest answer: what the screen shows. */
  response: FlowResponse | null;
  /** The flow-level message to show (form_data_invalid_error is shown at the fields instead). */
  error: WidgetError | null;
  /** Field errors the widget found before sending, by input name. */
  clientErrors: Record<string, FieldErrorCode | 'confirmation_required'>;
  /** The action being sent. */
  pending: PendingAction | null;
  /** The action whose answer is on screen (its inputs carry the input errors). */
  lastAction: string | null;
  /** An error kept across an automatic `back` (passkey prompt failed, third-party error). */
  carriedError: WidgetError | null;
  /** A profile answer held back during the short "saved" pause. */
  queued: FlowReply | null;
  /** Session headers of the answer that entered `success`; persistent: "Angemeldet bleiben". */
  session: { token: string | null; lifetime: number | null; persistent: boolean };
  /** Seconds until the rate-limited action may be sent again (429). */
  retrySeconds: number;
  retryAction: string | null;
  /** Seconds until a new passcode may be requested (`resend_after`). */
  resendSeconds: number;
  /** Counts wrong-code answers (e-mail or app code): the code input clears itself when it changes. */
  codeResets: number;
  thirdPartyReturn: ThirdPartyReturn | null;
  rename: RenameTarget | null;
}

export type AuthFlowEvent =
  | { type: 'action.run'; name: string; inputs?: Record<string, unknown>; confirmed?: boolean }
  | { type: 'flow.restart' }
  | { type: 'flow.switch'; flowName: FlowName }
  | { type: 'profile.rename'; kind: 'passkey' | 'security_key'; id: string }
  | { type: 'profile.deleteAccount' }
  | { type: 'profile.close' }
  | { type: 'auth.sessionCreated' }
  | { type: 'auth.sessionEnded' };

/** Events the machine emits for the app (src/ports/auth-events.ts). */
export type AuthFlowEmitted =
  | {
      type: 'session-created';
      token: string;
      userId: string;
      expiresInSeconds: number | null;
      /** false: the token is kept only until the browser closes. */
      persistent?: boolean;
    }
  | { type: 'session-expired' }
  | { type: 'user-deleted' };

/** Named delays (the specification's constants and limits). */
export const AUTH_FLOW_DELAYS = {
  requestTimeout: 13_000,
  countdownTick: 1_000,
  profileRefresh: 360,
} as const;

const notProvided = (actor: string) => notProvidedBy('authFlow', actor);

/** The part of an `xstate.done.actor.*` event the routing reads. */
const replyOf = (event: AnyEventObject): FlowReply =>
  (event as unknown as { output: FlowReply }).output;

const hasInputError = (body: FlowResponse, ...codes: string[]) =>
  Object.values(body.actions ?? {}).some((action) =>
    Object.values(action.inputs ?? {}).some((input) => codes.includes(input.error?.code ?? '')),
  );

/** The DOMException name of a WebAuthn failure (@simplewebauthn keeps it on its WebAuthnError). */
function webAuthnErrorName(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { name, cause } = error as { name?: unknown; cause?: unknown };
  if (typeof name === 'string' && name !== 'Error' && name !== 'WebAuthnError') return name;
  return cause === undefined ? undefined : webAuthnErrorName(cause);
}

/** The browser's passkey dialog was cancelled or timed out (both look the same to a page). */
const cancelled = (name: string | undefined) => name === 'NotAllowedError' || name === 'AbortError';

/** What the person is told after `navigator.credentials.create` failed. */
export function creationFailure(error: unknown): WidgetError {
  const name = webAuthnErrorName(error);
  if (name === 'InvalidStateError') return { code: 'webauthn_credential_already_exists' };
  if (cancelled(name)) return { code: 'passkey_creation_cancelled' };
  return { code: 'passkey_creation_failed' };
}

/**
 * What the person is told after `navigator.credentials.get` failed at sign-in: a cancel or
 * timeout says so (the screen it goes back to offers the other ways); anything else keeps
 * the server's error, if any.
 */
export function promptFailure(error: unknown): WidgetError | null {
  return cancelled(webAuthnErrorName(error)) ? { code: 'passkey_cancelled' } : null;
}

/**
 * The context of a run that has not begun: the start, and what `flow.restart` clears (the
 * flow's name, the session headers and the code boxes' reset count stay).
 */
const freshRun = (): Omit<AuthFlowContext, 'flowName' | 'session' | 'codeResets'> => ({
  response: null,
  error: null,
  clientErrors: {},
  pending: null,
  lastAction: null,
  carriedError: null,
  queued: null,
  retrySeconds: 0,
  retryAction: null,
  resendSeconds: 0,
  thirdPartyReturn: null,
  rename: null,
});

/** Input errors after which the code boxes start empty again. */
const WRONG_CODE_ERRORS = ['passcode_invalid', 'otp_code_invalid', 'otp_code_already_used'];

const numberOr0 = (value: unknown) =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.ceil(value) : 0;

/** Context changes for a new answer from the server. */
function contextFor(context: AuthFlowContext, reply: FlowReply): Partial<AuthFlowContext> {
  const body = reply.body;
  const flowError =
    body.error && body.error.code !== 'form_data_invalid_error' ? { code: body.error.code } : null;
  const rateLimited = body.status === 429 || body.error?.code === 'rate_limit_exceeded';
  const retry = rateLimited ? numberOr0(body.payload?.retry_after ?? reply.retryAfter) : 0;
  return {
    response: body,
    error: context.carriedError ?? flowError,
    carriedError: null,
    clientErrors: {},
    lastAction: context.pending?.name ?? null,
    pending: null,
    retrySeconds: retry,
    retryAction: retry > 0 ? (context.pending?.name ?? null) : null,
    resendSeconds: numberOr0(body.payload?.resend_after),
    codeResets: context.codeResets + (hasInputError(body, ...WRONG_CODE_ERRORS) ? 1 : 0),
    session:
      reply.token !== null || reply.sessionLifetime !== null
        ? {
            token: reply.token,
            lifetime: reply.sessionLifetime,
            persistent: reply.sessionRetention !== 'session',
          }
        : context.session,
  };
}

const offered = (context: AuthFlowContext, name: string) =>
  Boolean(context.response?.actions && name in context.response.actions);

/** Every input's echoed `value` as a default, then what the person entered (like the SDK). */
function inputsFor(context: AuthFlowContext, pending: PendingAction): Record<string, unknown> {
  const action = context.response?.actions[pending.name];
  const defaults: Record<string, unknown> = {};
  for (const [name, input] of Object.entries(action?.inputs ?? {})) {
    if (input.value !== undefined) defaults[name] = input.value;
  }
  return { ...defaults, ...pending.inputs };
}

const MFA_METHODS = ['continue_to_otp_secret_creation', 'continue_to_security_key_creation'];

export const authFlowMachine = setup({
  types: {
    input: {} as AuthFlowInput,
    context: {} as AuthFlowContext,
    events: {} as AuthFlowEvent,
    emitted: {} as AuthFlowEmitted,
  },
  actors: {
    /** Profile only: is there a session token to send? */
    checkSession: fromPromise<boolean>(notProvided('checkSession')),
    /** Reads (and removes) a third-party return from the URL and the saved `flow-state`. */
    readReturn: fromPromise<ThirdPartyReturn>(notProvided('readReturn')),
    /** POST /{flow} without an action. */
    startFlow: fromPromise<FlowReply, { flowName: FlowName }>(notProvided('startFlow')),
    /** POST {href} with {input_data, csrf_token}. */
    runAction: fromPromise<
      FlowReply,
      { href: string; csrfToken: string; inputs: Record<string, unknown> }
    >(notProvided('runAction')),
    detectCapabilities: fromPromise<ClientCapabilities>(notProvided('detectCapabilities')),
    /** Conditional mediation (passkey autofill) at login_init; resolves with an assertion. */
    conditionalPasskey: fromPromise<unknown, { options: WebAuthnOptions }>(
      notProvided('conditionalPasskey'),
    ),
    /** navigator.credentials.get; resolves with the assertion response. */
    getPasskey: fromPromise<unknown, { options: WebAuthnOptions }>(notProvided('getPasskey')),
    /** navigator.credentials.create; resolves with the attestation response. */
    createPasskey: fromPromise<unknown, { options: WebAuthnOptions }>(notProvided('createPasskey')),
    /** Saves the flow under `flow-state` and sends the browser to the provider. */
    redirectToProvider: fromPromise<void, { response: FlowResponse; url: string }>(
      notProvided('redirectToProvider'),
    ),
    /** Stores the last login under the storage key + `_last_login`. */
    saveLastLogin: fromPromise<void, { lastLogin: LastLogin | null }>(notProvided('saveLastLogin')),
    /** Listens to the app's auth events; sends auth.sessionCreated / auth.sessionEnded. */
    authEvents: fromCallback(() => () => {}),
  },
  delays: AUTH_FLOW_DELAYS,
  guards: {
    isProfile: ({ context }) => context.flowName === 'profile',
    replyIs: ({ event }, params: { name: ServerStateName }) =>
      replyOf(event).body?.name === params.name,
    actionOffered: ({ context, event }) =>
      event.type === 'action.run' && offered(context, event.name),
    actionBlocked: ({ context, event }) =>
      event.type === 'action.run' &&
      ((context.retrySeconds > 0 && event.name === context.retryAction) ||
        (context.resendSeconds > 0 && event.name === 'resend_passcode')),
    inputsValid: ({ context, event }) => {
      if (event.type !== 'action.run') return false;
      return Object.keys(clientErrorsFor(context, event)).length === 0;
    },
    retryPending: ({ context }) => context.retrySeconds > 0,
    retryEndsNow: ({ context }) => context.retrySeconds <= 1,
    resendPending: ({ context }) => context.resendSeconds > 0,
    resendEndsNow: ({ context }) => context.resendSeconds <= 1,
    hasRequestOptions: ({ context }) => Boolean(context.response?.payload?.request_options),
    hasCreationOptions: ({ context }) => Boolean(context.response?.payload?.creation_options),
    conditionalMediationReady: ({ context }) =>
      Boolean(context.response?.payload?.request_options) &&
      offered(context, 'webauthn_verify_assertion_response'),
    backOffered: ({ context }) => offered(context, 'back'),
    returnedFromProvider: ({ event }) => {
      const r = (event as { output?: ThirdPartyReturn }).output;
      return Boolean(r?.saved && r.saved.name === 'thirdparty' && (r.token || r.error));
    },
    hasReturnToken: ({ context }) => Boolean(context.thirdPartyReturn?.token),
    hasReturnError: ({ context }) => Boolean(context.thirdPartyReturn?.error),
    hasRedirectUrl: ({ context }) => Boolean(context.response?.payload?.redirect_url),
    singleMfaMethod: ({ context }) =>
      context.lastAction !== 'back' && MFA_METHODS.filter((m) => offered(context, m)).length === 1,
    profileActionSucceeded: ({ event }) => {
      const body = replyOf(event).body;
      return body?.name === 'profile_init' && body.status === 200;
    },
    sessionValid: ({ event }) => (event as { output?: boolean }).output === true,
    isUnauthorized: ({ context }) => context.response?.error?.code === 'unauthorized',
  },
  actions: {
    applyReply: assign(({ context, event }) => contextFor(context, replyOf(event))),
    queueReply: assign(({ event }) => ({ queued: replyOf(event) })),
    applyQueued: assign(({ context }) =>
      context.queued ? { ...contextFor(context, context.queued), queued: null } : {},
    ),
    /** Sends an actor's output as the input of an action (capabilities, WebAuthn responses). */
    pendOutput: assign(({ event }, params: { name: string; input: string }) => ({
      pending: {
        name: params.name,
        inputs: { [params.input]: (event as unknown as { output: unknown }).output },
      },
    })),
    pendCapabilities: assign(({ event }) => ({
      pending: {
        name: 'register_client_capabilities',
        inputs: {
          ...capabilityInputs(
            (event as unknown as { output?: Partial<ClientCapabilities> }).output,
          ),
        },
      },
    })),
    pendSingleMfaMethod: assign(({ context }) => ({
      pending: { name: MFA_METHODS.find((m) => offered(context, m))!, inputs: {} },
    })),
    pendTokenExchange: assign(({ context }) => ({
      pending: { name: 'exchange_token', inputs: { token: context.thirdPartyReturn?.token } },
      thirdPartyReturn: null,
    })),
    setPending: assign(({ event }) =>
      event.type === 'action.run'
        ? { pending: { name: event.name, inputs: event.inputs ?? {} } }
        : {},
    ),
    setClientErrors: assign(({ context, event }) =>
      event.type === 'action.run' ? { clientErrors: clientErrorsFor(context, event) } : {},
    ),
    setError: assign((_, params: { code: WidgetError['code'] }) => ({
      error: { code: params.code },
      pending: null,
    })),
    clearError: assign({ error: null }),
    tickRetry: assign(({ context }) => ({
      retrySeconds: Math.max(0, context.retrySeconds - 1),
    })),
    tickResend: assign(({ context }) => ({
      resendSeconds: Math.max(0, context.resendSeconds - 1),
    })),
    resetFlow: assign(freshRun),
    switchFlow: assign(({ event }) =>
      event.type === 'flow.switch' ? { flowName: event.flowName } : {},
    ),
    rememberReturn: assign(({ event }) => {
      const r = (event as unknown as { output: ThirdPartyReturn }).output;
      return { thirdPartyReturn: r, response: r.saved };
    }),
    /** The third party said no: access_denied, or another error with its description. */
    takeReturnError: assign(({ context }) => {
      const r = context.thirdPartyReturn;
      const error: WidgetError =
        r?.error === 'access_denied'
          ? { code: 'third_party_access_denied' }
          : {
              code: 'third_party_error',
              ...(r?.errorDescription ? { description: r.errorDescription } : {}),
            };
      return { error, carriedError: error, thirdPartyReturn: null };
    }),
    runBack: assign(({ context }) => ({
      pending: { name: 'back', inputs: {} },
      carriedError: context.carriedError ?? context.error,
    })),
    /**
     * Creating a passkey failed: "already exists" only for the browser's InvalidStateError (as
     * the Hanko SDK does); a cancel or timeout (NotAllowedError, AbortError) says so; anything
     * else says that it did not work.
     */
    carryCreateFailure: assign(({ event }) => {
      const error = creationFailure((event as { error?: unknown }).error);
      return { carriedError: error, error };
    }),
    carryPromptFailure: assign(({ context, event }) => {
      const error = promptFailure((event as { error?: unknown }).error) ?? context.error;
      return { carriedError: error, error };
    }),
    openRename: assign(({ event }) =>
      event.type === 'profile.rename'
        ? { rename: { kind: event.kind, id: event.id }, clientErrors: {} }
        : {},
    ),
    closeSubscreen: assign({ rename: null, clientErrors: {} }),
    emitSessionCreated: enqueueActions(({ context, enqueue }) => {
      const token = context.session.token;
      const payload = context.response?.payload;
      const userId = payload?.claims?.subject ?? payload?.user?.id;
      if (!token || !userId) return;
      enqueue.emit({
        type: 'session-created',
        token,
        userId,
        expiresInSeconds: context.session.lifetime,
        ...(context.session.persistent ? {} : { persistent: false }),
      });
    }),
    emitUserDeleted: emit({ type: 'user-deleted' }),
    emitSessionExpired: emit({ type: 'session-expired' }),
  },
}).createMachine({
  id: 'authFlow',
  context: ({ input }) => ({
    ...freshRun(),
    flowName: input.flowName,
    session: { token: null, lifetime: null, persistent: true },
    codeResets: 0,
  }),
  invoke: { id: 'authEvents', src: 'authEvents' },
  initial: 'initializing',
  on: {
    'flow.restart': { target: '.restarting', actions: 'resetFlow' },
    'flow.switch': {
      guard: not('isProfile'),
      target: '.restarting',
      actions: ['resetFlow', 'switchFlow'],
    },
    // The specification's session rules: session end, logout or deletion restart login and
    // registration; a new session restarts the profile.
    'auth.sessionEnded': { guard: not('isProfile'), target: '.restarting', actions: 'resetFlow' },
    'auth.sessionCreated': { guard: 'isProfile', target: '.restarting', actions: 'resetFlow' },
  },
  states: {
    initializing: {
      invoke: {
        id: 'readReturn',
        src: 'readReturn',
        onDone: [
          {
            guard: 'returnedFromProvider',
            target: 'thirdparty',
            actions: 'rememberReturn',
          },
          { target: 'restarting' },
        ],
        onError: { target: 'restarting' },
      },
    },
    restarting: {
      always: [{ guard: 'isProfile', target: 'checkingSession' }, { target: 'starting' }],
    },
    checkingSession: {
      tags: ['busy'],
      invoke: {
        id: 'checkSession',
        src: 'checkSession',
        onDone: [
          { guard: 'sessionValid', target: 'starting' },
          failTo('failed', 'session_missing'),
        ],
        onError: failTo('failed', 'session_missing'),
      },
    },
    starting: {
      tags: ['busy'],
      invoke: {
        id: 'startFlow',
        src: 'startFlow',
        input: ({ context }) => ({ flowName: context.flowName }),
        onDone: routing(),
        onError: failTo('failed', 'network_error'),
      },
      after: { requestTimeout: failTo('failed', 'request_timeout') },
    },
    /** An unexpected widget error: the error screen, whose Continue restarts the flow. */
    failed: { tags: ['error screen'] },
    /** The server named a state this widget has no handler for. */
    handlerNotFound: {
      tags: ['error screen'],
      entry: { type: 'setError', params: { code: 'handler_not_found' } },
    },

    preflight: serverState({
      init: [{ target: 'detecting' }],
      extra: {
        detecting: {
          tags: ['busy'],
          invoke: {
            id: 'detectCapabilities',
            src: 'detectCapabilities',
            onDone: { target: 'submitting', actions: 'pendCapabilities' },
            // Detection failed: report nothing available, so passwords and passcodes remain.
            onError: { target: 'submitting', actions: 'pendCapabilities' },
          },
        },
      },
    }),
    login_init: serverState({
      init: [{ guard: 'conditionalMediationReady', target: 'autofill' }],
      extra: {
        /** Waiting, with passkey autofill (conditional mediation) offered in the background. */
        autofill: {
          invoke: {
            id: 'conditionalPasskey',
            src: 'conditionalPasskey',
            input: ({ context }: { context: AuthFlowContext }) => ({
              options: context.response!.payload!.request_options!,
            }),
            onDone: {
              target: 'submitting',
              actions: {
                type: 'pendOutput',
                params: { name: 'webauthn_verify_assertion_response', input: 'assertion_response' },
              },
            },
            // Cancelled or not chosen: the person signs in another way.
            onError: { target: 'idle' },
          },
          on: { 'action.run': runTransitions() },
        },
      },
    }),
    passcode_confirmation: {
      type: 'parallel',
      states: {
        form: formRegion({ retryCountdown: true }),
        resend: {
          initial: 'init',
          states: {
            init: {
              always: [{ guard: 'resendPending', target: 'waiting' }, { target: 'ready' }],
            },
            waiting: {
              tags: ['resendCountdown'],
              after: {
                countdownTick: [
                  { guard: 'resendEndsNow', target: 'ready', actions: 'tickResend' },
                  { target: 'waiting', reenter: true, actions: 'tickResend' },
                ],
              },
            },
            ready: {},
          },
        },
      },
    },
    login_otp: serverState({ retryCountdown: true }),
    login_passkey: serverState(passkeyPrompt('get')),
    login_password: serverState({ retryCountdown: true }),
    login_password_recovery: serverState({}),
    login_security_key: serverState({}),
    login_method_chooser: serverState({}),
    mfa_method_chooser: serverState({
      init: [
        {
          guard: 'singleMfaMethod',
          target: 'submitting',
          actions: 'pendSingleMfaMethod',
        },
      ],
    }),
    mfa_otp_secret_creation: serverState({}),
    mfa_security_key_creation: serverState({}),
    registration_init: serverState({}),
    password_creation: serverState({}),
    onboarding_create_passkey: serverState({}),
    onboarding_verify_passkey_attestation: serverState(passkeyPrompt('create')),
    onboarding_email: serverState({}),
    onboarding_username: serverState({}),
    credential_onboarding_chooser: serverState({}),
    webauthn_credential_verification: serverState(passkeyPrompt('create')),
    thirdparty: serverState({
      retryCountdown: true,
      init: [
        {
          guard: 'hasReturnToken',
          target: 'submitting',
          actions: 'pendTokenExchange',
        },
        {
          guard: and(['hasReturnError', 'backOffered']),
          target: 'submitting',
          actions: ['takeReturnError', 'runBack'],
        },
        { guard: 'hasReturnError', target: 'idle', actions: 'takeReturnError' },
        { guard: 'hasRedirectUrl', target: 'redirecting' },
      ],
      extra: {
        redirecting: {
          tags: ['busy'],
          invoke: {
            id: 'redirectToProvider',
            src: 'redirectToProvider',
            input: ({ context }: { context: AuthFlowContext }) => ({
              response: context.response!,
              url: context.response!.payload!.redirect_url!,
            }),
            onError: failTo('idle', 'technical_error'),
          },
        },
      },
    }),
    device_trust: serverState({}),
    profile_init: serverState({
      extraIdleEvents: {
        'profile.rename': { target: 'renaming', actions: 'openRename' },
        'profile.deleteAccount': { target: 'deletingAccount', actions: 'closeSubscreen' },
      },
      extra: {
        /** Sub-screen: rename a passkey or security key. */
        renaming: {
          tags: ['renaming'],
          on: {
            'profile.close': { target: 'idle', actions: 'closeSubscreen' },
            'action.run': runTransitions(),
          },
        },
        /** Sub-screen: delete the account (needs the confirmation checkbox). */
        deletingAccount: {
          tags: ['deletingAccount'],
          on: {
            'profile.close': { target: 'idle', actions: 'closeSubscreen' },
            'action.run': runTransitions(),
          },
        },
        /** A profile action succeeded: show it briefly, then the refreshed profile. */
        succeeded: {
          tags: ['succeeded'],
          after: {
            profileRefresh: {
              target: '#authFlow.profile_init',
              reenter: true,
              actions: 'applyQueued',
            },
          },
        },
      },
      submitDone: [{ guard: 'profileActionSucceeded', target: 'succeeded', actions: 'queueReply' }],
    }),
    error: {
      tags: ['error screen'],
      entry: enqueueActions(({ check, enqueue }) => {
        if (check('isUnauthorized')) enqueue('emitSessionExpired');
      }),
    },
    success: {
      tags: ['succeeded'],
      entry: 'emitSessionCreated',
      invoke: {
        id: 'saveLastLogin',
        src: 'saveLastLogin',
        input: ({ context }) => ({ lastLogin: context.response?.payload?.last_login ?? null }),
      },
    },
    account_deleted: {
      tags: ['succeeded'],
      entry: 'emitUserDeleted',
    },
  },
});

export type AuthFlowMachine = typeof authFlowMachine;

/* ------------------------------------------------------------------------------------------ */
/* Building blocks. Plain objects, typed loosely: setup() checks the names they refer to.       */
/* ------------------------------------------------------------------------------------------ */

type Config = Record<string, unknown>;

/** A transition to `target` that shows the widget error `code` (and drops the pending action). */
function failTo(target: string, code: WidgetError['code']) {
  return { target, actions: { type: 'setError' as const, params: { code } } };
}

/** Transitions for an answer: to the state it names (re-entered), or handlerNotFound. */
function routing(extra: Config[] = []): Config[] {
  return [
    ...extra,
    ...SERVER_STATES.map((name) => ({
      guard: { type: 'replyIs', params: { name } },
      target: `#authFlow.${name}`,
      reenter: true,
      actions: 'applyReply',
    })),
    { target: '#authFlow.handlerNotFound', actions: 'applyReply' },
  ];
}

/** What `action.run` does on a waiting screen. */
function runTransitions(): Config[] {
  return [
    { guard: 'actionBlocked' },
    {
      guard: and(['actionOffered', 'inputsValid']),
      target: 'submitting',
      actions: ['setPending', 'clearError'],
    },
    { guard: 'actionOffered', actions: 'setClientErrors' },
  ];
}

interface ServerStateOptions {
  /**
   * The state has actions the server rate-limits with `retry_after` (protocol §4.4: password,
   * OTP, passcode attempts, token exchange): a 429 starts the retry countdown.
   */
  retryCountdown?: boolean;
  /** Transitions tried on entry before waiting (after a pending retry countdown). */
  init?: Config[];
  extra?: Record<string, Config>;
  extraIdleEvents?: Record<string, Config>;
  submitDone?: Config[];
}

function formRegion(options: ServerStateOptions): Config {
  return {
    initial: 'init',
    states: {
      init: {
        always: [
          ...(options.retryCountdown ? [{ guard: 'retryPending', target: 'coolingDown' }] : []),
          ...(options.init ?? []),
          { target: 'idle' },
        ],
      },
      idle: { on: { 'action.run': runTransitions(), ...options.extraIdleEvents } },
      ...(options.retryCountdown
        ? {
            coolingDown: {
              tags: ['retryCountdown'],
              after: {
                countdownTick: [
                  { guard: 'retryEndsNow', target: 'idle', actions: 'tickRetry' },
                  { target: 'coolingDown', reenter: true, actions: 'tickRetry' },
                ],
              },
              on: { 'action.run': runTransitions() },
            },
          }
        : {}),
      submitting: {
        tags: ['busy'],
        invoke: {
          id: 'runAction',
          src: 'runAction',
          input: ({ context }: { context: AuthFlowContext }) => {
            const pending = context.pending!;
            return {
              href: context.response!.actions[pending.name]!.href,
              csrfToken: context.response!.csrf_token,
              inputs: inputsFor(context, pending),
            };
          },
          onDone: routing(options.submitDone),
          onError: failTo('idle', 'network_error'),
        },
        after: { requestTimeout: failTo('idle', 'request_timeout') },
      },
      ...options.extra,
    },
  };
}

function serverState(options: ServerStateOptions): Config {
  return formRegion(options);
}

/** The automatic passkey step of login_passkey ('get') or of the attestation states ('create'). */
function passkeyPrompt(kind: 'get' | 'create'): ServerStateOptions {
  const optionsGuard = kind === 'get' ? 'hasRequestOptions' : 'hasCreationOptions';
  const verify =
    kind === 'get'
      ? { name: 'webauthn_verify_assertion_response', input: 'assertion_response' }
      : { name: 'webauthn_verify_attestation_response', input: 'public_key' };
  const failed = kind === 'get' ? 'carryPromptFailure' : 'carryCreateFailure';
  return {
    init: [
      { guard: optionsGuard, target: 'prompting' },
      // No options (e.g. after 401 passkey_invalid): go back, keeping the error.
      { guard: 'backOffered', target: 'submitting', actions: 'runBack' },
    ],
    extra: {
      prompting: {
        tags: ['busy'],
        invoke: {
          id: 'passkeyPrompt',
          src: kind === 'get' ? 'getPasskey' : 'createPasskey',
          input: ({ context }: { context: AuthFlowContext }) => ({
            options:
              kind === 'get'
                ? context.response!.payload!.request_options!
                : context.response!.payload!.creation_options!,
          }),
          onDone: { target: 'submitting', actions: { type: 'pendOutput', params: verify } },
          onError: [
            { guard: 'backOffered', target: 'submitting', actions: [failed, 'runBack'] },
            { target: 'idle', actions: failed },
          ],
        },
      },
    },
  };
}

/** Field errors for an `action.run` event, from the server's inputs and the widget's rules. */
function clientErrorsFor(
  context: AuthFlowContext,
  event: Extract<AuthFlowEvent, { type: 'action.run' }>,
): AuthFlowContext['clientErrors'] {
  const action = context.response?.actions[event.name];
  if (!action) return {};
  const values = event.inputs ?? {};
  const errors: AuthFlowContext['clientErrors'] = { ...validateAction(action, values) };
  if (event.name === 'webauthn_credential_rename') {
    const nameError = validateCredentialName(String(values.passkey_name ?? ''));
    if (nameError) errors.passkey_name = nameError;
    else delete errors.passkey_name;
  }
  if (event.name === 'account_delete' && event.confirmed !== true) {
    errors.confirm = 'confirmation_required';
  }
  return errors;
}
