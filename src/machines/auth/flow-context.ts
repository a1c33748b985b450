import type { AnyEventObject } from 'xstate';
import type { AuthEvent } from '../../ports/auth-events';
import type { FlowName, FlowReply, FlowResponse, ThirdPartyReturn, WidgetError } from './types';
import { validateAction, validateCredentialName, type FieldErrorCode } from './validation';

/**
 * The sign-in flow machine's context and events, and the pure functions that compute its
 * context: what an answer from the server changes, what a restart clears, what an action
 * sends and which field errors the widget finds before sending.
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

/**
 * The port's events that a flow raises; signing out is the session's own announcement, so a
 * flow never emits `user-logged-out`.
 */
export type AuthFlowEmitted = Exclude<AuthEvent, { type: 'user-logged-out' }>;

/** The part of an `xstate.done.actor.*` event the routing reads. */
export const replyOf = (event: AnyEventObject): FlowReply =>
  (event as unknown as { output: FlowReply }).output;

const hasInputError = (body: FlowResponse, ...codes: string[]) =>
  Object.values(body.actions ?? {}).some((action) =>
    Object.values(action.inputs ?? {}).some((input) => codes.includes(input.error?.code ?? '')),
  );

/**
 * The context of a run that has not begun: the start, and what `flow.restart` clears (the
 * flow's name, the session headers and the code boxes' reset count stay).
 */
export const freshRun = (): Omit<AuthFlowContext, 'flowName' | 'session' | 'codeResets'> => ({
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
export function contextFor(context: AuthFlowContext, reply: FlowReply): Partial<AuthFlowContext> {
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

export const offered = (context: AuthFlowContext, name: string) =>
  Boolean(context.response?.actions && name in context.response.actions);

/** Every input's echoed `value` as a default, then what the person entered (like the SDK). */
export function inputsFor(
  context: AuthFlowContext,
  pending: PendingAction,
): Record<string, unknown> {
  const action = context.response?.actions[pending.name];
  const defaults: Record<string, unknown> = {};
  for (const [name, input] of Object.entries(action?.inputs ?? {})) {
    if (input.value !== undefined) defaults[name] = input.value;
  }
  return { ...defaults, ...pending.inputs };
}

/** The second-factor methods offered after sign-in; one alone is chosen without asking. */
export const MFA_METHODS = ['continue_to_otp_secret_creation', 'continue_to_security_key_creation'];

/** Field errors for an `action.run` event, from the server's inputs and the widget's rules. */
export function clientErrorsFor(
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
