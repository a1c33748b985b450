import {
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  platformAuthenticatorIsAvailable,
} from '@simplewebauthn/browser';
import type { ClientCapabilities } from './types';

/** What this browser can do with passkeys, for the preflight state. */
export async function detectCapabilities(): Promise<ClientCapabilities> {
  const webauthn = browserSupportsWebAuthn();
  return {
    webauthn_available: webauthn,
    webauthn_conditional_mediation_available: webauthn && (await browserSupportsWebAuthnAutofill()),
    webauthn_platform_authenticator_available:
      webauthn && (await platformAuthenticatorIsAvailable()),
  };
}
