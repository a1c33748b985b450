import type { ClientCapabilities } from './types';

/**
 * The inputs of `register_client_capabilities`: a failed or partial detection reports nothing
 * available, so passwords and passcodes remain.
 */
export function capabilityInputs(found?: Partial<ClientCapabilities>): ClientCapabilities {
  return {
    webauthn_available: found?.webauthn_available === true,
    webauthn_conditional_mediation_available:
      found?.webauthn_conditional_mediation_available === true,
    webauthn_platform_authenticator_available:
      found?.webauthn_platform_authenticator_available === true,
  };
}
