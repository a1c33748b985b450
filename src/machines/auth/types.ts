import type { components } from '../../../shared/contract/auth';
import type { ListsAll } from '../../../shared/contract/enums';

/**
 * The wire shapes of the sign-in flow protocol (openapi/auth.yaml, generated types), and the
 * few things the widget adds on top of them. The machine relies only on these, so the widget
 * works against our provider and against a hosted Hanko alike.
 */
export type FlowResponse = components['schemas']['FlowResponse'];
export type FlowAction = components['schemas']['FlowAction'];
export type FlowInput = components['schemas']['FlowInput'];
export type FlowPayload = components['schemas']['FlowPayload'];
export type ProfileData = components['schemas']['ProfileData'];
export type ProfileSession = components['schemas']['ProfileSession'];
export type WebAuthnCredential = components['schemas']['WebAuthnCredential'];
export type LastLogin = components['schemas']['LastLogin'];
export type WebAuthnOptions = components['schemas']['WebAuthnOptions'];

/** The flows a widget can run (protocol §1.1). */
export type FlowName = 'login' | 'registration' | 'profile';

/**
 * The 25 server states plus preflight (protocol §3 of docs/auth-flow-protocol.md; the
 * specification's states and transitions), in the order of the protocol. Each is a state of the
 * flow machine with the same name. The compiler checks them against the contract's FlowStateName:
 * the same values, all of them.
 */
export const SERVER_STATES = [
  'preflight',
  'login_init',
  'passcode_confirmation',
  'login_otp',
  'login_passkey',
  'login_password',
  'login_password_recovery',
  'login_security_key',
  'login_method_chooser',
  'mfa_method_chooser',
  'mfa_otp_secret_creation',
  'mfa_security_key_creation',
  'registration_init',
  'password_creation',
  'onboarding_create_passkey',
  'onboarding_verify_passkey_attestation',
  'onboarding_email',
  'onboarding_username',
  'credential_onboarding_chooser',
  'webauthn_credential_verification',
  'thirdparty',
  'device_trust',
  'profile_init',
  'error',
  'success',
  'account_deleted',
] as const satisfies readonly components['schemas']['FlowStateName'][];
const _allStates: ListsAll<components['schemas']['FlowStateName'], typeof SERVER_STATES> = true;

export type ServerStateName = (typeof SERVER_STATES)[number];

export const isServerState = (name: string): name is ServerStateName =>
  (SERVER_STATES as readonly string[]).includes(name);

/** What a flow request answered: the body plus the session headers of the response. */
export interface FlowReply {
  body: FlowResponse;
  /** HTTP status (the body's `status` mirrors it; the body decides). */
  status: number;
  /** `X-Auth-Token` of the response that entered `success` (header mode). */
  token: string | null;
  /** `X-Session-Lifetime` in seconds. */
  sessionLifetime: number | null;
  /**
   * `X-Session-Retention`: `session` keeps the token only until the browser closes (no
   * "Angemeldet bleiben"); absent or `persistent`, for the lifetime.
   */
  sessionRetention?: 'persistent' | 'session' | null;
  /** `Retry-After` in seconds, when the server sent it. */
  retryAfter: number | null;
}

/** Reported in preflight (`register_client_capabilities`). */
export interface ClientCapabilities {
  webauthn_available: boolean;
  webauthn_conditional_mediation_available: boolean;
  webauthn_platform_authenticator_available: boolean;
}

/** What the page URL and local storage hold when the browser comes back from a provider. */
export interface ThirdPartyReturn {
  /** The flow saved before the redirect (`flow-state`). */
  saved: FlowResponse | null;
  /** `hanko_token` from the URL. */
  token: string | null;
  /** `error` and `error_description` from the URL. */
  error: string | null;
  errorDescription: string | null;
}

/**
 * A message the widget shows: a protocol error code (the specification's error catalogue, protocol
 * §4.1/§4.2), or one the widget makes itself.
 */
export type WidgetErrorCode =
  | components['schemas']['FlowErrorCode']
  | 'request_timeout'
  | 'network_error'
  | 'handler_not_found'
  | 'webauthn_credential_already_exists'
  | 'passkey_creation_failed'
  | 'passkey_creation_cancelled'
  | 'passkey_cancelled'
  | 'third_party_access_denied'
  | 'third_party_error'
  | 'session_missing';

export interface WidgetError {
  code: WidgetErrorCode | (string & {});
  /** Extra text to show, e.g. a third party's error_description. */
  description?: string;
}
