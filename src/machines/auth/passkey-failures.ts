import type { WidgetError } from './types';

/**
 * What the sign-in widget tells the person when the browser's passkey dialog failed: the
 * browser names the failure only by its DOMException name.
 */

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
