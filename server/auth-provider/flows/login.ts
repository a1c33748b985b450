import { setUsername, usernameOf } from '../accounts';
import type { AuthConfig } from '../config';
import { flowErrors, inputErrors, invalidInput } from '../flow/errors';
import type { FlowDef, InputDef, Outcome } from '../flow/types';
import {
  checkPassword,
  hashPassword,
  hasPassword,
  passwordPolicyError,
  setPasswordHash,
} from '../passwords';
import { checkOtp, deviceTrusted, otpSecretOf, saveOtpSecret, trustDevice } from '../totp';
import {
  findUserByEmail,
  findUserByUsername,
  markEmailVerified,
  passkeyDeclinedAt,
  recordPasskeyDeclined,
  sessionEmail,
} from '../users';
import {
  assertionCredentialId,
  assertionUserHandle,
  credentialsOf,
  findCredential,
  insertCredential,
  recordUse,
  requestOptions,
  userIdFromHandle,
  verifyAssertion,
} from '../webauthn';
import { PASSWORD_MAX_BYTES } from '../config';
import {
  attachmentOk,
  credentialOnboarding,
  credentialStates,
  mfaCreation,
  mfaEnabled,
  passkeysUsable,
  totpUsable,
  webauthnAvailable,
  credentialSummary,
  flowUser,
  type CredentialSink,
} from './credentials';
import {
  addCookie,
  dataOf,
  emailInput,
  overLimit,
  passcodeConfirmation,
  preflight,
  rateLimited,
  rememberMe,
  success,
  usernameInput,
  USERNAME_PATTERN,
  type AuthEnv,
  type Ctx,
  type State,
} from './shared';
import { addOnboardingEmail, onboardingEmail } from './onboarding-email';
import { samlDivert, thirdpartyAmr, thirdpartyOauth, thirdpartyState } from './thirdparty';

/** Login stores new credentials at once, for the user whose credential was proven. */
const loginSink: CredentialSink = {
  flow: 'login',
  ...flowUser,
  async summary(ctx) {
    const { tx } = ctx.env;
    const userId = dataOf(ctx).user_id!;
    return credentialSummary({
      password: await hasPassword(tx, userId),
      webauthn: await credentialsOf(tx, userId),
      otp: !!(await otpSecretOf(tx, userId)),
      email: !!(await sessionEmail(tx, userId)),
    });
  },
  existing: async (ctx) => credentialsOf(ctx.env.tx, dataOf(ctx).user_id!),
  saveCredential: (ctx, credential) =>
    insertCredential(ctx.env.tx, dataOf(ctx).user_id!, credential, ctx.now),
  saveOtp: (ctx, sealed, step) => saveOtpSecret(ctx.env.tx, dataOf(ctx).user_id!, sealed, step),
  savePassword: (ctx, hash) => setPasswordHash(ctx.env.tx, dataOf(ctx).user_id!, hash, ctx.now),
  declinePasskey: (ctx) => recordPasskeyDeclined(ctx.env.tx, dataOf(ctx).user_id!, ctx.now),
  after: [],
};

const DAY_MS = 86_400_000;

/** A decline younger than the snooze period (any decline with 0 days) keeps the offer away. */
async function passkeySnoozed(ctx: Ctx): Promise<boolean> {
  const { auth, tx } = ctx.env;
  if (!auth.AUTH_PASSKEY_OPTIONAL) return false;
  const declined = await passkeyDeclinedAt(tx, dataOf(ctx).user_id!);
  if (!declined) return false;
  const days = auth.AUTH_PASSKEY_ONBOARDING_SNOOZE_DAYS;
  return days === 0 || ctx.now.getTime() - declined.getTime() < days * DAY_MS;
}

/**
 * The post-login queue (protocol §3.2), computed once when a first credential is proven:
 * MFA set-up, the second factor (unless the login was by passkey or the device is
 * trusted), password recovery, username onboarding, credential onboarding, device trust.
 */
async function afterLogin(ctx: Ctx): Promise<string[]> {
  const { tx, auth } = ctx.env;
  const data = dataOf(ctx);
  const userId = data.user_id!;
  const s = await loginSink.summary(ctx);
  data.user_has_otp = s.otp;
  data.user_has_security_key = s.securityKeys > 0;
  data.user_has_password = s.password;
  data.user_has_webauthn = s.passkeys > 0;
  data.passkey_snoozed = s.passkeys === 0 && (await passkeySnoozed(ctx));
  const states = [...(await mfaCreation(ctx, loginSink))];
  let secondFactor = false;
  if (
    mfaEnabled(ctx) &&
    data.login_method !== 'passkey' &&
    !(await deviceTrusted(tx, ctx.request.deviceCookie, userId, ctx.now))
  ) {
    if (auth.AUTH_MFA_SECURITY_KEYS && s.securityKeys > 0) {
      if (webauthnAvailable(ctx) && attachmentOk(ctx)) states.push('login_security_key');
      else if (totpUsable(ctx) && s.otp) states.push('login_otp');
      else {
        ctx.setFlowError(flowErrors.platformAuthenticatorRequired);
        return ['error'];
      }
      secondFactor = true;
    } else if (totpUsable(ctx) && s.otp) {
      states.push('login_otp');
      secondFactor = true;
    }
  }
  if (data.recovery_pending) states.push('login_password_recovery');
  if (auth.AUTH_USERNAME !== 'off' && !(await usernameOf(tx, userId)))
    states.push('onboarding_username');
  if (auth.AUTH_EMAIL_ACQUIRE_ON_LOGIN && !s.email) states.push('onboarding_email');
  states.push(...credentialOnboarding(ctx, 'login', s));
  if (secondFactor) {
    if (auth.AUTH_DEVICE_TRUST === 'prompt') states.push('device_trust');
    else if (auth.AUTH_DEVICE_TRUST === 'always') data.trust_device = true;
  }
  states.push('success');
  return states;
}

/** Options for a passkey sign-in (discoverable) or a security key as second factor. */
async function presentRequestOptions(ctx: Ctx) {
  const data = dataOf(ctx);
  const { auth, rp, tx } = ctx.env;
  const mfa = data.webauthn_purpose === 'mfa';
  const allow = mfa ? (await credentialsOf(tx, data.user_id!)).filter((c) => c.mfaOnly) : undefined;
  const { options, challenge } = await requestOptions(rp, {
    ...(allow ? { allow } : {}),
    userVerification: mfa ? 'discouraged' : auth.AUTH_PASSKEY_USER_VERIFICATION,
  });
  data.webauthn_challenge = challenge;
  ctx.payload.request_options = options;
}

/**
 * Checks `assertion_response` against the options last sent. A passkey sign-in takes the
 * user from the credential; a second factor must be one of the signed-in user's security
 * keys. The challenge is used once.
 */
async function verifyWebauthn(ctx: Ctx): Promise<Outcome> {
  const { tx, rp, auth } = ctx.env;
  const data = dataOf(ctx);
  const mfa = data.webauthn_purpose === 'mfa';
  const response = ctx.input.assertion_response;
  const challenge = data.webauthn_challenge;
  delete data.webauthn_challenge;
  const id = assertionCredentialId(response);
  const credential = id ? await findCredential(tx, id) : null;
  const refused = { kind: 'error' as const, error: flowErrors.passkeyInvalid };
  if (!challenge || !credential) return refused;
  const handle = userIdFromHandle(assertionUserHandle(response));
  if (handle && handle !== credential.userId) return refused;
  if (mfa ? credential.userId !== data.user_id || !credential.mfaOnly : false) return refused;
  if (!mfa && credential.mfaOnly) {
    return { kind: 'error', error: flowErrors.webauthnCredentialInvalidMfaOnly };
  }
  // A passkey of someone else than the person who entered an identifier.
  if (!mfa && data.user_id && data.user_id !== credential.userId && !data.dead_end) return refused;
  const used = await verifyAssertion(
    rp,
    response,
    challenge,
    credential,
    !mfa && auth.AUTH_PASSKEY_USER_VERIFICATION === 'required',
  );
  if (!used) return refused;
  await recordUse(tx, credential.id, used, ctx.now);
  ctx.preventRevert();
  if (mfa) {
    data.mfa_method = 'security_key';
    return { kind: 'continue', states: [] };
  }
  data.user_id = credential.userId;
  data.dead_end = false;
  data.email = (await sessionEmail(tx, credential.userId))?.address;
  data.login_method = 'passkey';
  return { kind: 'continue', states: await afterLogin(ctx) };
}

const assertionInput = (): InputDef[] => [
  { name: 'assertion_response', type: 'json', required: true },
];

function toPasscode(ctx: Ctx, template: 'login' | 'recovery') {
  const data = dataOf(ctx);
  data.passcode_template = data.user_id ? template : 'email_login_attempted';
  return { kind: 'continue' as const, states: ['passcode_confirmation'] };
}

export function loginFlow(auth: AuthConfig): FlowDef<AuthEnv> {
  const passwords = auth.AUTH_PASSWORD_ENABLED;
  const passcodes = auth.AUTH_PASSCODE_LOGIN;
  const usernames = auth.AUTH_USERNAME !== 'off';

  const identifierInput: InputDef = usernames
    ? {
        name: 'identifier',
        type: 'string',
        required: true,
        maxLength: 255,
        trim: true,
        lowercase: true,
        preserve: true,
      }
    : emailInput(auth);

  const toPasskeyLogin = {
    name: 'webauthn_generate_request_options',
    description: 'Get request options to use a webauthn credential.',
    enabled: passkeysUsable,
    async execute(ctx: Ctx): Promise<Outcome> {
      dataOf(ctx).webauthn_purpose = 'login';
      return { kind: 'continue', states: ['login_passkey'] };
    },
  };

  const loginInit: State = {
    name: 'login_init',
    // Conditional mediation (passkey autofill): fresh options whenever the state is shown.
    async before(ctx) {
      const data = dataOf(ctx);
      if (passkeysUsable(ctx) && data.webauthn_conditional_mediation_available) {
        data.webauthn_purpose = 'login';
        await presentRequestOptions(ctx);
      }
    },
    actions: [
      toPasskeyLogin,
      {
        name: 'webauthn_verify_assertion_response',
        description: 'Verify a WebAuthn assertion (passkey autofill).',
        inputs: assertionInput,
        enabled: webauthnAvailable,
        execute: verifyWebauthn,
      },
      {
        name: 'continue_with_login_identifier',
        description: 'Enter an identifier to login.',
        inputs: () => [identifierInput],
        // Hanko: also offered for SAML alone (addresses of its domains go to their IdP).
        enabled: (ctx) => passwords || passcodes || ctx.env.saml.enabled,
        async execute(ctx) {
          const { tx } = ctx.env;
          const data = dataOf(ctx);
          const given = String(ctx.input[identifierInput.name]);
          const isEmail = given.includes('@');
          const diverted = isEmail ? await samlDivert(ctx, given) : null;
          if (diverted) return diverted;
          if (isEmail) {
            // An address someone added but never confirmed does not lead into their account:
            // otherwise its real owner, signing in by code, would land in the other account.
            const match = await findUserByEmail(tx, given);
            const found =
              match && (match.verified || !auth.AUTH_EMAIL_REQUIRE_VERIFICATION) ? match : null;
            if (!found && auth.AUTH_SHOW_ACCOUNT_EXISTENCE_HINTS) {
              return invalidInput(identifierInput.name, inputErrors.unknownEmail);
            }
            data.email = given;
            data.user_id = found?.userId;
            data.dead_end = !found;
          } else {
            const found = usernames ? await findUserByUsername(tx, given) : null;
            if (!found) return invalidInput(identifierInput.name, inputErrors.unknownUsername);
            data.username = given;
            data.user_id = found.userId;
            data.email = (await sessionEmail(tx, found.userId))?.address;
          }
          if (auth.AUTH_ONLY_SHOW_ACTUAL_LOGIN_METHODS) return actualMethods(ctx);
          if (passcodes && passwords) {
            return data.email
              ? { kind: 'continue', states: ['login_method_chooser'] }
              : { kind: 'continue', states: ['login_password'] };
          }
          if (passcodes && data.email) return toPasscode(ctx, 'login');
          if (passwords) return { kind: 'continue', states: ['login_password'] };
          return { kind: 'error', error: flowErrors.flowDiscontinuity };
        },
      },
      thirdpartyOauth,
      rememberMe,
    ],
  };

  /**
   * only_show_actual_login_methods (protocol §3.2): the methods the account has; several →
   * the chooser, one → straight to it. An unknown address goes to the code like an account
   * without a password (the code mail then says no account exists), so both look the same.
   */
  async function actualMethods(ctx: Ctx): Promise<Outcome> {
    const data = dataOf(ctx);
    if (!data.user_id) {
      if (passcodes && data.email) return toPasscode(ctx, 'login');
      if (passwords) return { kind: 'continue', states: ['login_password'] };
      return { kind: 'error', error: flowErrors.flowDiscontinuity };
    }
    const credentials = await credentialsOf(ctx.env.tx, data.user_id);
    const methods = {
      email: passcodes && !!data.email,
      password: passwords && (await hasPassword(ctx.env.tx, data.user_id)),
      passkey: passkeysUsable(ctx) && credentials.some((c) => !c.mfaOnly),
    };
    data.account_methods = methods;
    const count = Object.values(methods).filter(Boolean).length;
    if (count > 1) return { kind: 'continue', states: ['login_method_chooser'] };
    if (methods.email) return toPasscode(ctx, 'login');
    if (methods.password) return { kind: 'continue', states: ['login_password'] };
    if (methods.passkey) return toPasskeyLogin.execute(ctx);
    return { kind: 'error', error: flowErrors.flowDiscontinuity };
  }

  /** In the chooser, with only_show_actual_login_methods, only what the account has. */
  const accountHas = (ctx: Ctx, method: 'password' | 'passkey') =>
    !auth.AUTH_ONLY_SHOW_ACTUAL_LOGIN_METHODS || dataOf(ctx).account_methods?.[method] === true;

  const methodChooser: State = {
    name: 'login_method_chooser',
    back: true,
    actions: [
      {
        name: 'continue_to_password_login',
        description: 'Continue to the password login.',
        enabled: (ctx) => passwords && accountHas(ctx, 'password'),
        execute: async () => ({ kind: 'continue', states: ['login_password'] }),
      },
      {
        name: 'continue_to_passcode_confirmation',
        description: 'Continue to the passcode confirmation.',
        enabled: (ctx) => passcodes && !!dataOf(ctx).email,
        execute: async (ctx) => toPasscode(ctx, 'login'),
      },
      {
        ...toPasskeyLogin,
        enabled: (ctx: Ctx) => passkeysUsable(ctx) && accountHas(ctx, 'passkey'),
      },
    ],
  };

  const loginPasskey: State = {
    name: 'login_passkey',
    back: true,
    // The options exist only in the response that enters the state (protocol §1.6).
    async before(ctx) {
      if (ctx.entered) await presentRequestOptions(ctx);
    },
    actions: [
      {
        name: 'webauthn_verify_assertion_response',
        description: 'Verify a WebAuthn assertion.',
        inputs: assertionInput,
        enabled: webauthnAvailable,
        execute: verifyWebauthn,
      },
    ],
  };

  const loginSecurityKey: State = {
    name: 'login_security_key',
    actions: [
      {
        name: 'webauthn_generate_request_options',
        description: 'Get request options to use a security key.',
        enabled: webauthnAvailable,
        async execute(ctx) {
          dataOf(ctx).webauthn_purpose = 'mfa';
          return { kind: 'continue', states: ['login_passkey'] };
        },
      },
      {
        name: 'continue_to_login_otp',
        description: 'Continue to the OTP login.',
        enabled: (ctx) => totpUsable(ctx) && dataOf(ctx).user_has_otp === true,
        execute: async () => ({ kind: 'continue', states: ['login_otp'] }),
      },
    ],
  };

  const loginOtp: State = {
    name: 'login_otp',
    actions: [
      {
        name: 'otp_code_validate',
        description: 'Verify an OTP code.',
        inputs: () => [
          { name: 'otp_code', type: 'string', required: true, trim: true, maxLength: 64 },
        ],
        async execute(ctx) {
          const { tx, rateLimits, secrets } = ctx.env;
          const data = dataOf(ctx);
          const wait = await overLimit(
            rateLimits.passwordAttempt,
            `otp|${ctx.request.ip}|${data.user_id}`,
          );
          if (wait !== null) return rateLimited(ctx, wait, 'retry_after');
          const result = await checkOtp(
            tx,
            secrets,
            data.user_id!,
            String(ctx.input.otp_code),
            ctx.now,
          );
          if (result === 'invalid') return invalidInput('otp_code', inputErrors.otpCodeInvalid);
          if (result === 'already_used')
            return invalidInput('otp_code', inputErrors.otpCodeAlreadyUsed);
          data.mfa_method = 'totp';
          ctx.preventRevert();
          return { kind: 'continue', states: [] };
        },
      },
      {
        name: 'continue_to_login_security_key',
        description: 'Use a security key instead.',
        enabled: (ctx) =>
          ctx.env.auth.AUTH_MFA_SECURITY_KEYS &&
          dataOf(ctx).user_has_security_key === true &&
          webauthnAvailable(ctx) &&
          attachmentOk(ctx),
        execute: async () => ({ kind: 'continue', states: ['login_security_key'] }),
      },
    ],
  };

  const deviceTrust: State = {
    name: 'device_trust',
    back: true,
    actions: [
      {
        name: 'trust_device',
        description: 'Trust this device, to skip MFA on subsequent logins.',
        async execute(ctx) {
          dataOf(ctx).trust_device = true;
          ctx.preventRevert();
          return { kind: 'continue', states: [] };
        },
      },
      {
        name: 'skip',
        description: 'Skip',
        execute: async () => ({ kind: 'continue', states: [] }),
      },
    ],
  };

  const onboardingUsername: State = {
    name: 'onboarding_username',
    actions: [
      {
        name: 'username_create',
        description: 'Set a username.',
        inputs: () => [usernameInput(auth)],
        async execute(ctx) {
          const username = typeof ctx.input.username === 'string' ? ctx.input.username : '';
          if (!username) return invalidInput('username', inputErrors.valueMissing);
          if (!USERNAME_PATTERN.test(username))
            return invalidInput('username', inputErrors.invalidUsername);
          if (await findUserByUsername(ctx.env.tx, username)) {
            return invalidInput('username', inputErrors.usernameAlreadyExists);
          }
          await setUsername(ctx.env.tx, dataOf(ctx).user_id!, username, ctx.now);
          return { kind: 'continue', states: [] };
        },
      },
      {
        name: 'skip',
        description: 'Skip',
        enabled: () => auth.AUTH_USERNAME === 'optional',
        execute: async () => ({ kind: 'continue', states: [] }),
      },
    ],
  };

  const loginPassword: State = {
    name: 'login_password',
    back: true,
    actions: [
      {
        name: 'password_login',
        description: 'Login with a password.',
        inputs: () => [{ name: 'password', type: 'password', required: true, maxLength: 1000 }],
        enabled: () => passwords,
        async execute(ctx) {
          const { tx, rateLimits } = ctx.env;
          const data = dataOf(ctx);
          const identifier = data.email ?? data.username ?? '';
          const key = `${ctx.request.ip}|${identifier}`;
          const wait =
            (await overLimit(rateLimits.passwordAttempt, key)) ??
            (await overLimit(rateLimits.passwordAttemptIdentifier, identifier));
          if (wait !== null) return rateLimited(ctx, wait, 'retry_after');
          const ok = await checkPassword(tx, data.user_id ?? null, String(ctx.input.password));
          if (!ok) return invalidInput('password', inputErrors.valueInvalid);
          await rateLimits.passwordAttempt.reset(key);
          ctx.preventRevert();
          data.login_method = 'password';
          return { kind: 'continue', states: await afterLogin(ctx) };
        },
      },
      {
        name: 'continue_to_passcode_confirmation_recovery',
        description: 'Forgot password: continue to the passcode confirmation.',
        enabled: (ctx) => auth.AUTH_PASSWORD_RECOVERY && !!dataOf(ctx).email,
        async execute(ctx) {
          dataOf(ctx).recovery_pending = true;
          return toPasscode(ctx, 'recovery');
        },
      },
    ],
  };

  const passwordRecovery: State = {
    name: 'login_password_recovery',
    actions: [
      {
        name: 'password_recovery',
        description: 'Submit a new password.',
        inputs: () => [
          {
            name: 'new_password',
            type: 'password',
            required: true,
            minLength: auth.AUTH_PASSWORD_MIN_LENGTH,
            maxLength: PASSWORD_MAX_BYTES,
          },
        ],
        enabled: () => passwords,
        async execute(ctx) {
          const data = dataOf(ctx);
          const password = String(ctx.input.new_password);
          const policy = passwordPolicyError(password, auth.AUTH_PASSWORD_MIN_LENGTH);
          if (policy) {
            return invalidInput(
              'new_password',
              policy === 'too_short' ? inputErrors.valueTooShort : inputErrors.valueTooLong,
            );
          }
          await setPasswordHash(ctx.env.tx, data.user_id!, await hashPassword(password), ctx.now);
          data.recovery_pending = false;
          ctx.preventRevert();
          return { kind: 'continue', states: await mfaCreation(ctx, loginSink) };
        },
      },
    ],
  };

  const passcode = passcodeConfirmation(async (ctx) => {
    const data = dataOf(ctx);
    if (data.onboarding_email) {
      await addOnboardingEmail(ctx, true);
      return { kind: 'continue', states: [] };
    }
    await markEmailVerified(ctx.env.tx, data.user_id!, data.email!, ctx.now);
    data.login_method = 'passcode';
    return { kind: 'continue', states: await afterLogin(ctx) };
  });

  const AMR = { password: 'pwd', passcode: 'otp', passkey: 'passkey' } as const;
  const done = success(async (ctx) => {
    const data = dataOf(ctx);
    if (!data.user_id || data.dead_end) throw new Error('success without a user');
    if (data.login_method === 'third_party')
      return { userId: data.user_id, amr: thirdpartyAmr(ctx) };
    if (data.trust_device) {
      const value = await trustDevice(
        ctx.env.tx,
        ctx.request.deviceCookie,
        data.user_id,
        auth.AUTH_DEVICE_TRUST_DAYS,
        ctx.now,
      );
      addCookie(ctx, deviceCookie(auth, value));
    }
    const amr: string[] = [AMR[data.login_method ?? 'passcode']];
    if (data.mfa_method) amr.push(data.mfa_method);
    return { userId: data.user_id, amr };
  }, true);

  return {
    name: 'login',
    ttlSeconds: auth.AUTH_FLOW_TTL_SECONDS,
    initial: ['preflight', 'login_init'],
    states: Object.fromEntries(
      [
        preflight,
        loginInit,
        methodChooser,
        loginPassword,
        passwordRecovery,
        passcode,
        loginPasskey,
        loginSecurityKey,
        loginOtp,
        deviceTrust,
        onboardingUsername,
        onboardingEmail('user'),
        thirdpartyState,
        ...credentialStates(loginSink),
        done,
      ].map((s) => [s.name, s]),
    ),
  };
}

/** The device-trust cookie (protocol §1.5): HttpOnly, SameSite=None (Secure), 30 days. */
function deviceCookie(auth: AuthConfig, value: string) {
  const parts = [
    `${auth.AUTH_DEVICE_TRUST_COOKIE}=${encodeURIComponent(value)}`,
    'Path=/',
    `Max-Age=${auth.AUTH_DEVICE_TRUST_DAYS * 86_400}`,
    'HttpOnly',
    ...(auth.AUTH_COOKIE_SECURE ? ['Secure', 'SameSite=None'] : ['SameSite=Lax']),
  ];
  if (auth.AUTH_COOKIE_DOMAIN) parts.push(`Domain=${auth.AUTH_COOKIE_DOMAIN}`);
  return parts.join('; ');
}
