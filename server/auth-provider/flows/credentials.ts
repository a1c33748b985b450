import { flowErrors, inputErrors, invalidInput } from '../flow/errors';
import { PASSWORD_MAX_BYTES } from '../config';
import type { Outcome } from '../flow/types';
import { hashPassword, passwordPolicyError } from '../passwords';
import { newOtpSecret, otpImage, otpStep } from '../totp';
import { creationOptions, verifyAttestation, type NewCredential } from '../webauthn';
import { dataOf, type Ctx, type State } from './shared';

// The credential states the login, registration and profile flows share (protocol §3.6):
// passkey onboarding and its attestation, password creation, the onboarding chooser, and
// the MFA set-up states. Where a new credential goes (stored now, or kept in the flow until
// the registration creates the user) is the flow's `CredentialSink`.

export interface CredentialSummary {
  password: boolean;
  /** Passkeys (WebAuthn credentials usable to sign in). */
  passkeys: number;
  securityKeys: number;
  otp: boolean;
  email: boolean;
}

/** What a user holds, counted into a summary: passkeys sign in, MFA-only keys do not. */
export function credentialSummary(held: {
  password: boolean;
  webauthn: readonly { mfaOnly: boolean }[];
  otp: boolean;
  email: boolean;
}): CredentialSummary {
  return {
    password: held.password,
    passkeys: held.webauthn.filter((c) => !c.mfaOnly).length,
    securityKeys: held.webauthn.filter((c) => c.mfaOnly).length,
    otp: held.otp,
    email: held.email,
  };
}

/** The person a login or registration flow is for, and the name their authenticators show. */
export const flowUser = {
  userId: (ctx: Ctx) => dataOf(ctx).user_id!,
  userName: (ctx: Ctx) => dataOf(ctx).email ?? dataOf(ctx).username ?? 'user',
} satisfies Pick<CredentialSink, 'userId' | 'userName'>;

export interface CredentialSink {
  flow: 'login' | 'registration' | 'profile';
  userId(ctx: Ctx): string;
  /** The name authenticators and authenticator apps show. */
  userName(ctx: Ctx): string;
  summary(ctx: Ctx): Promise<CredentialSummary>;
  /** The user's WebAuthn credentials (excluded from creation: "already registered"). */
  existing(ctx: Ctx): Promise<{ id: string; transports: string[] }[]>;
  /** false: the credential id is registered already. */
  saveCredential(ctx: Ctx, credential: NewCredential): Promise<boolean>;
  saveOtp(ctx: Ctx, sealedSecret: string, step: number): Promise<void>;
  savePassword(ctx: Ctx, hash: string): Promise<void>;
  /** The person skipped the passkey offer (login, registration: remembered per user). */
  declinePasskey?(ctx: Ctx): Promise<void>;
  /** States after a created credential (profile: back to profile_init). */
  after: string[];
}

/** The browser can do WebAuthn (preflight). */
export const webauthnAvailable = (ctx: Ctx) => dataOf(ctx).webauthn_available === true;
export const passkeysUsable = (ctx: Ctx) =>
  webauthnAvailable(ctx) && ctx.env.auth.AUTH_PASSKEYS_ENABLED;
export const mfaEnabled = (ctx: Ctx) => {
  const { auth } = ctx.env;
  return auth.AUTH_MFA !== 'off' && (auth.AUTH_MFA_TOTP || auth.AUTH_MFA_SECURITY_KEYS);
};
/** The configured security-key attachment is possible on this device. */
export const attachmentOk = (ctx: Ctx) =>
  dataOf(ctx).webauthn_platform_authenticator_available === true ||
  ctx.env.auth.AUTH_MFA_SECURITY_KEY_ATTACHMENT !== 'platform';
export const securityKeysUsable = (ctx: Ctx) =>
  mfaEnabled(ctx) &&
  ctx.env.auth.AUTH_MFA_SECURITY_KEYS &&
  webauthnAvailable(ctx) &&
  attachmentOk(ctx);
export const totpUsable = (ctx: Ctx) => mfaEnabled(ctx) && ctx.env.auth.AUTH_MFA_TOTP;

const canLoginWithEmail = (ctx: Ctx) =>
  !!dataOf(ctx).email && ctx.env.auth.AUTH_PASSCODE_LOGIN && !dataOf(ctx).dead_end;
const hasPasswordNow = (ctx: Ctx) =>
  !!dataOf(ctx).password_hash || dataOf(ctx).user_has_password === true;
const hasPasskeyNow = (ctx: Ctx) =>
  (dataOf(ctx).pending_credentials ?? []).some((c) => !c.mfaOnly) ||
  dataOf(ctx).user_has_webauthn === true;

const PASSKEY = 'onboarding_create_passkey';
const PASSWORD = 'password_creation';
const CHOOSER = 'credential_onboarding_chooser';
const ONBOARDING = new Set([PASSKEY, PASSWORD, CHOOSER]);

function acquisition(ctx: Ctx, flow: 'login' | 'registration') {
  const { auth } = ctx.env;
  const passkey =
    flow === 'login'
      ? auth.AUTH_PASSKEY_ACQUIRE_ON_LOGIN
      : auth.AUTH_PASSKEY_ACQUIRE_ON_REGISTRATION;
  let password =
    flow === 'login'
      ? auth.AUTH_PASSWORD_ACQUIRE_ON_LOGIN
      : auth.AUTH_PASSWORD_ACQUIRE_ON_REGISTRATION;
  if (dataOf(ctx).recovery_pending) password = 'never';
  // A recent decline: this sign-in does not offer a passkey (set only where passkeys are optional).
  return { passkey: flow === 'login' && dataOf(ctx).passkey_snoozed ? 'never' : passkey, password };
}

/** Credential onboarding after registration or login (protocol §3.2 step 5, §3.3). */
export function credentialOnboarding(
  ctx: Ctx,
  flow: 'login' | 'registration',
  s: CredentialSummary,
): string[] {
  const { auth } = ctx.env;
  const P = passkeysUsable(ctx);
  const W = auth.AUTH_PASSWORD_ENABLED;
  const { passkey: pk, password: pw } = acquisition(ctx, flow);
  const hasPk = s.passkeys > 0;
  const hasPw = s.password;
  if (P && W) {
    if (pk === 'always' && pw === 'always') {
      if (!hasPk && !hasPw) {
        return !auth.AUTH_PASSWORD_OPTIONAL && auth.AUTH_PASSKEY_OPTIONAL
          ? [PASSWORD, PASSKEY]
          : [PASSKEY, PASSWORD];
      }
      return !hasPk ? [PASSKEY] : !hasPw ? [PASSWORD] : [];
    }
    if (pk === 'always') return hasPk ? [] : [PASSKEY];
    if (pw === 'always') return hasPw ? [] : [PASSWORD];
    if (hasPk || hasPw) return [];
    if (pk === 'conditional' && pw === 'conditional') return [CHOOSER];
    if (pk === 'conditional') return [PASSKEY];
    if (pw === 'conditional') return [PASSWORD];
    return [];
  }
  if (P) return pk !== 'never' && !hasPk ? [PASSKEY] : [];
  if (W) return pw !== 'never' && !hasPw ? [PASSWORD] : [];
  return [];
}

/**
 * MFA-creation scheduling (protocol §3.2): `mfa_method_chooser` next, once per flow, when
 * the user has no second factor yet, could sign in without one, MFA set-up is asked for
 * (always when MFA is required) and the device can do a method.
 */
export async function mfaCreation(ctx: Ctx, sink: CredentialSink): Promise<string[]> {
  const { auth } = ctx.env;
  const data = dataOf(ctx);
  // The profile offers MFA set-up as its own actions.
  if (sink.flow === 'profile') return [];
  if (!mfaEnabled(ctx) || data.mfa_chooser_scheduled || data.recovery_pending) return [];
  if (ctx.scheduled.some((s) => ONBOARDING.has(s))) return [];
  const s = await sink.summary(ctx);
  if (s.securityKeys > 0 || s.otp) return [];
  const canSignIn =
    (auth.AUTH_PASSWORD_ENABLED && s.password) || (auth.AUTH_PASSCODE_LOGIN && s.email);
  if (!canSignIn) return [];
  const acquire =
    auth.AUTH_MFA === 'required' ||
    (sink.flow === 'login'
      ? auth.AUTH_MFA_ACQUIRE_ON_LOGIN
      : auth.AUTH_MFA_ACQUIRE_ON_REGISTRATION);
  if (!acquire) return [];
  if (!totpUsable(ctx) && !securityKeysUsable(ctx)) {
    if (auth.AUTH_MFA === 'required') ctx.setFlowError(flowErrors.platformAuthenticatorRequired);
    return [];
  }
  data.mfa_chooser_scheduled = true;
  return ['mfa_method_chooser'];
}

const continueWith = (states: string[]): Outcome => ({ kind: 'continue', states });

export function credentialStates(sink: CredentialSink): State[] {
  /** Creation options for the verification state, regenerated whenever it is shown. */
  async function presentCreationOptions(ctx: Ctx) {
    const data = dataOf(ctx);
    const { options, challenge } = await creationOptions(ctx.env.rp, {
      userId: sink.userId(ctx),
      userName: sink.userName(ctx),
      exclude: await sink.existing(ctx),
      mfaOnly: data.webauthn_purpose === 'create_security_key',
      auth: ctx.env.auth,
    });
    data.webauthn_challenge = challenge;
    ctx.payload.creation_options = options;
  }

  function attestationState(name: string): State {
    return {
      name,
      back: true,
      before: presentCreationOptions,
      actions: [
        {
          name: 'webauthn_verify_attestation_response',
          description: 'Send the result which was generated by creating a webauthn credential.',
          inputs: () => [{ name: 'public_key', type: 'json', required: true }],
          enabled: (ctx) =>
            webauthnAvailable(ctx) &&
            (dataOf(ctx).webauthn_purpose === 'create_security_key'
              ? securityKeysUsable(ctx)
              : ctx.env.auth.AUTH_PASSKEYS_ENABLED),
          async execute(ctx) {
            const data = dataOf(ctx);
            const mfaOnly = data.webauthn_purpose === 'create_security_key';
            const challenge = data.webauthn_challenge;
            delete data.webauthn_challenge;
            const credential = challenge
              ? await verifyAttestation(ctx.env.rp, ctx.input.public_key, challenge, {
                  mfaOnly,
                  requireUserVerification:
                    !mfaOnly && ctx.env.auth.AUTH_PASSKEY_USER_VERIFICATION === 'required',
                })
              : null;
            // Refused (or registered already): back to where the person started, with the reason.
            if (!credential || !(await sink.saveCredential(ctx, credential))) {
              return { kind: 'revert', error: flowErrors.passkeyInvalid };
            }
            if (mfaOnly) data.user_has_security_key = true;
            else data.user_has_webauthn = true;
            ctx.preventRevert();
            return continueWith([...sink.after, ...(await mfaCreation(ctx, sink))]);
          },
        },
      ],
    };
  }

  const toPasskeyCreation = {
    name: 'webauthn_generate_creation_options',
    description: 'Get creation options to create a webauthn credential.',
    async execute(ctx: Ctx) {
      dataOf(ctx).webauthn_purpose = 'create_passkey';
      return continueWith(['onboarding_verify_passkey_attestation']);
    },
  };

  const onboardingCreatePasskey: State = {
    name: PASSKEY,
    back: true,
    actions: [
      { ...toPasskeyCreation, enabled: passkeysUsable },
      {
        name: 'skip',
        description: 'Skip',
        enabled: (ctx) =>
          ctx.env.auth.AUTH_PASSKEY_OPTIONAL &&
          ctx.prevState !== CHOOSER &&
          (canLoginWithEmail(ctx) || hasPasswordNow(ctx)),
        async execute(ctx) {
          await sink.declinePasskey?.(ctx);
          const flow = sink.flow === 'registration' ? 'registration' : 'login';
          if (acquisition(ctx, flow).password === 'conditional' && !hasPasswordNow(ctx)) {
            return continueWith([PASSWORD]);
          }
          return continueWith(await mfaCreation(ctx, sink));
        },
      },
    ],
  };

  const passwordCreation: State = {
    name: PASSWORD,
    back: true,
    actions: [
      {
        name: 'register_password',
        description: 'Submit a new password.',
        inputs: (ctx) => [
          {
            name: 'new_password',
            type: 'password',
            required: !ctx.env.auth.AUTH_PASSWORD_OPTIONAL,
            minLength: ctx.env.auth.AUTH_PASSWORD_MIN_LENGTH,
            maxLength: PASSWORD_MAX_BYTES,
          },
        ],
        enabled: (ctx) => ctx.env.auth.AUTH_PASSWORD_ENABLED,
        async execute(ctx) {
          const password = typeof ctx.input.new_password === 'string' ? ctx.input.new_password : '';
          if (!password) return invalidInput('new_password', inputErrors.valueMissing);
          const policy = passwordPolicyError(password, ctx.env.auth.AUTH_PASSWORD_MIN_LENGTH);
          if (policy) {
            return invalidInput(
              'new_password',
              policy === 'too_short' ? inputErrors.valueTooShort : inputErrors.valueTooLong,
            );
          }
          await sink.savePassword(ctx, await hashPassword(password));
          dataOf(ctx).user_has_password = true;
          ctx.preventRevert();
          return continueWith(await mfaCreation(ctx, sink));
        },
      },
      {
        name: 'skip',
        description: 'Skip',
        // Without a password the person signs in by passcode or passkey.
        enabled: (ctx) =>
          ctx.env.auth.AUTH_PASSWORD_OPTIONAL &&
          ctx.prevState !== CHOOSER &&
          (canLoginWithEmail(ctx) || hasPasskeyNow(ctx)),
        async execute(ctx) {
          const flow = sink.flow === 'registration' ? 'registration' : 'login';
          if (
            acquisition(ctx, flow).passkey === 'conditional' &&
            !hasPasskeyNow(ctx) &&
            passkeysUsable(ctx)
          ) {
            return continueWith([PASSKEY]);
          }
          return continueWith(await mfaCreation(ctx, sink));
        },
      },
    ],
  };

  const onboardingChooser: State = {
    name: CHOOSER,
    back: true,
    actions: [
      {
        name: 'continue_to_passkey_registration',
        description: 'Continue to the passkey registration.',
        enabled: passkeysUsable,
        execute: async () => continueWith([PASSKEY]),
      },
      {
        name: 'continue_to_password_registration',
        description: 'Continue to the password registration.',
        enabled: (ctx) => ctx.env.auth.AUTH_PASSWORD_ENABLED,
        execute: async () => continueWith([PASSWORD]),
      },
      {
        name: 'skip',
        description: 'Skip',
        enabled: (ctx) =>
          (ctx.env.auth.AUTH_PASSWORD_OPTIONAL || ctx.env.auth.AUTH_PASSKEY_OPTIONAL) &&
          (sink.flow !== 'registration' || canLoginWithEmail(ctx)),
        execute: async (ctx) => continueWith(await mfaCreation(ctx, sink)),
      },
    ],
  };

  const mfaMethodChooser: State = {
    name: 'mfa_method_chooser',
    back: true,
    actions: [
      {
        name: 'continue_to_otp_secret_creation',
        description: 'Create an OTP secret',
        enabled: totpUsable,
        execute: async () => continueWith(['mfa_otp_secret_creation']),
      },
      {
        name: 'continue_to_security_key_creation',
        description: 'Create a security key',
        enabled: securityKeysUsable,
        execute: async () => continueWith(['mfa_security_key_creation']),
      },
      {
        name: 'skip',
        description: 'Skip',
        enabled: (ctx) => ctx.env.auth.AUTH_MFA === 'optional',
        execute: async () => continueWith([]),
      },
    ],
  };

  const mfaOtpSecretCreation: State = {
    name: 'mfa_otp_secret_creation',
    back: true,
    async before(ctx) {
      const { secrets, auth } = ctx.env;
      const data = dataOf(ctx);
      data.otp_setup_secret ??= secrets.seal(newOtpSecret());
      const secret = secrets.open(data.otp_setup_secret);
      ctx.payload.otp_secret = secret;
      ctx.payload.otp_image_source = await otpImage(
        secret,
        auth.AUTH_TOTP_ISSUER,
        sink.userName(ctx),
      );
    },
    actions: [
      {
        name: 'otp_code_verify',
        description: 'Verify an OTP code.',
        inputs: () => [
          { name: 'otp_code', type: 'string', required: true, trim: true, maxLength: 64 },
        ],
        enabled: totpUsable,
        async execute(ctx) {
          const data = dataOf(ctx);
          const sealed = data.otp_setup_secret;
          const step = sealed
            ? otpStep(ctx.env.secrets.open(sealed), String(ctx.input.otp_code), ctx.now)
            : null;
          // The protocol's code for a wrong code here is passcode_invalid (Q2).
          if (step === null || !sealed)
            return invalidInput('otp_code', inputErrors.passcodeInvalid);
          await sink.saveOtp(ctx, sealed, step);
          delete data.otp_setup_secret;
          data.user_has_otp = true;
          ctx.preventRevert();
          return continueWith([...sink.after]);
        },
      },
    ],
  };

  const mfaSecurityKeyCreation: State = {
    name: 'mfa_security_key_creation',
    back: true,
    actions: [
      {
        name: 'webauthn_generate_creation_options',
        description: 'Get creation options to create a security key.',
        enabled: securityKeysUsable,
        async execute(ctx) {
          dataOf(ctx).webauthn_purpose = 'create_security_key';
          return continueWith(['onboarding_verify_passkey_attestation']);
        },
      },
    ],
  };

  return [
    onboardingCreatePasskey,
    attestationState('onboarding_verify_passkey_attestation'),
    attestationState('webauthn_credential_verification'),
    passwordCreation,
    onboardingChooser,
    mfaMethodChooser,
    mfaOtpSecretCreation,
    mfaSecurityKeyCreation,
  ];
}
