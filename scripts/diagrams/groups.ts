import type { Grouping } from './mermaid';

/**
 * Machines too big for one diagram, drawn as an overview of these groups of top-level states
 * plus a diagram per group. The sign-in flow's groups follow the protocol's own flows; a state
 * the provider adds later falls into the last group until it is placed.
 */
export const GROUPINGS: Record<string, Grouping> = {
  authFlow: [
    {
      title: 'Anmelden',
      states: [
        'login_init',
        'login_method_chooser',
        'login_password',
        'login_password_recovery',
        'login_passkey',
        'login_otp',
        'login_security_key',
        'passcode_confirmation',
      ],
    },
    {
      title: 'Zweiter Faktor',
      states: ['mfa_method_chooser', 'mfa_otp_secret_creation', 'mfa_security_key_creation'],
    },
    {
      title: 'Registrieren und Einrichten',
      states: [
        'registration_init',
        'password_creation',
        'credential_onboarding_chooser',
        'onboarding_create_passkey',
        'onboarding_verify_passkey_attestation',
        'webauthn_credential_verification',
        'onboarding_email',
        'onboarding_username',
      ],
    },
    { title: 'Anbieter und Gerät', states: ['thirdparty', 'device_trust'] },
    { title: 'Profil', states: ['profile_init'] },
    {
      title: 'Start, Ende und Fehler',
      states: [
        'initializing',
        'restarting',
        'checkingSession',
        'starting',
        'preflight',
        'failed',
        'handlerNotFound',
        'error',
        'success',
        'account_deleted',
      ],
    },
  ],
};
