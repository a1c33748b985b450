import { and } from 'xstate';
import { SERVER_STATES, type WidgetError } from './types';
import { inputsFor, type AuthFlowContext } from './flow-context';

/**
 * Building blocks of the sign-in flow machine's states: every server state gets the same form
 * part (init, idle, submitting, and coolingDown where the server rate-limits), the same routing
 * of answers and the same handling of `action.run`. Plain objects, typed loosely: setup()
 * checks the names they refer to.
 */

export type Config = Record<string, unknown>;

/** A transition to `target` that shows the widget error `code` (and drops the pending action). */
export function failTo(target: string, code: WidgetError['code']) {
  return { target, actions: { type: 'setError' as const, params: { code } } };
}

/** Transitions for an answer: to the state it names (re-entered), or handlerNotFound. */
export function routing(extra: Config[] = []): Config[] {
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
export function runTransitions(): Config[] {
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

export interface ServerStateOptions {
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

export function formRegion(options: ServerStateOptions): Config {
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

export function serverState(options: ServerStateOptions): Config {
  return formRegion(options);
}

/** The automatic passkey step of login_passkey ('get') or of the attestation states ('create'). */
export function passkeyPrompt(kind: 'get' | 'create'): ServerStateOptions {
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
