import { and, assign, emit, enqueueActions, fromCallback, fromPromise, not, setup } from 'xstate';
import type {
  ClientCapabilities,
  FlowName,
  FlowReply,
  FlowResponse,
  LastLogin,
  ServerStateName,
  ThirdPartyReturn,
  WebAuthnOptions,
  WidgetError,
} from './types';
import { capabilityInputs } from './capabilities';
import { notProvided as notProvidedBy } from '../shared/failures';
import {
  clientErrorsFor,
  contextFor,
  freshRun,
  MFA_METHODS,
  offered,
  replyOf,
  type AuthFlowContext,
  type AuthFlowEmitted,
  type AuthFlowEvent,
  type AuthFlowInput,
} from './flow-context';
import {
  failTo,
  formRegion,
  passkeyPrompt,
  routing,
  runTransitions,
  serverState,
} from './flow-states';
import { creationFailure, promptFailure } from './passkey-failures';

export type {
  AuthFlowContext,
  AuthFlowEmitted,
  AuthFlowEvent,
  AuthFlowInput,
  PendingAction,
  RenameTarget,
} from './flow-context';
export { creationFailure, promptFailure } from './passkey-failures';

/** Named delays (the specification's constants and limits). */
export const AUTH_FLOW_DELAYS = {
  requestTimeout: 13_000,
  countdownTick: 1_000,
  profileRefresh: 360,
} as const;

const notProvided = (actor: string) => notProvidedBy('authFlow', actor);

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
