import { randomUUID } from 'node:crypto';
import type { AuthConfig } from '../config';
import { flowErrors, inputErrors, invalidInput } from '../flow/errors';
import type { FlowDef, InputDef, Outcome } from '../flow/types';
import { onboardingEmail } from './onboarding-email';
import { saveOtpSecret } from '../totp';
import { findCredential, insertCredential } from '../webauthn';
import {
  credentialOnboarding,
  credentialStates,
  mfaCreation,
  credentialSummary,
  flowUser,
  type CredentialSink,
} from './credentials';
import {
  createUser,
  findUserByEmail,
  findUserByUsername,
  releaseUnconfirmedAddress,
} from '../users';
import {
  dataOf,
  emailInput,
  passcodeConfirmation,
  preflight,
  rememberMe,
  success,
  usernameInput,
  USERNAME_PATTERN,
  type AuthEnv,
  type Ctx,
  type State,
} from './shared';
import { samlDivert, thirdpartyAmr, thirdpartyOauth, thirdpartyState } from './thirdparty';

/** Registration keeps new credentials in the flow; the user and they are created at success. */
const registrationSink: CredentialSink = {
  flow: 'registration',
  ...flowUser,
  async summary(ctx) {
    const data = dataOf(ctx);
    return credentialSummary({
      password: !!data.password_hash,
      webauthn: data.pending_credentials ?? [],
      otp: !!data.pending_otp,
      email: !!data.email,
    });
  },
  existing: async (ctx) =>
    (dataOf(ctx).pending_credentials ?? []).map((c) => ({ id: c.id, transports: c.transports })),
  async saveCredential(ctx, credential) {
    const data = dataOf(ctx);
    const pending = (data.pending_credentials ??= []);
    if (
      pending.some((c) => c.id === credential.id) ||
      (await findCredential(ctx.env.tx, credential.id))
    ) {
      return false;
    }
    pending.push(credential);
    return true;
  },
  async saveOtp(ctx, sealed, step) {
    dataOf(ctx).pending_otp = { secret: sealed, step };
  },
  async savePassword(ctx, hash) {
    dataOf(ctx).password_hash = hash;
  },
  async declinePasskey(ctx) {
    dataOf(ctx).passkey_declined = true;
  },
  after: [],
};

export function registrationFlow(auth: AuthConfig): FlowDef<AuthEnv> {
  const usernames = auth.AUTH_USERNAME !== 'off';
  const emails = auth.AUTH_EMAIL_ACQUIRE_ON_REGISTRATION;
  // Offered together, both are optional (one of them is needed); the address then follows
  // in onboarding, like an address that is not asked for here at all.
  const both = usernames && emails;
  const inputs = (): InputDef[] => [
    ...(emails ? [emailInput(auth, { required: !both && !auth.AUTH_EMAIL_OPTIONAL })] : []),
    ...(usernames ? [{ ...usernameInput(auth), ...(both ? { required: false } : {}) }] : []),
  ];

  const registrationInit: State = {
    name: 'registration_init',
    actions: [
      {
        name: 'register_login_identifier',
        description: 'Enter an identifier to register.',
        inputs,
        enabled: () => auth.AUTH_SIGNUP_ENABLED && (emails || usernames),
        async execute(ctx) {
          const { tx } = ctx.env;
          const data = dataOf(ctx);
          const given = (name: string) =>
            typeof ctx.input[name] === 'string' && ctx.input[name] ? ctx.input[name] : null;
          const email = given('email');
          const username = given('username');
          if (!email && !username) {
            return {
              kind: 'error',
              error: flowErrors.formDataInvalid,
              inputErrors: Object.fromEntries(
                inputs().map((i) => [i.name, inputErrors.valueMissing]),
              ),
            };
          }
          if (username) {
            if (!USERNAME_PATTERN.test(username))
              return invalidInput('username', inputErrors.invalidUsername);
            if (await findUserByUsername(tx, username)) {
              return invalidInput('username', inputErrors.usernameAlreadyExists);
            }
          }
          if (!email) return byUsername(ctx, username!);
          // Hanko: after the username checks, an address of a SAML domain signs up at its IdP.
          const diverted = await samlDivert(ctx, email);
          if (diverted) return diverted;
          const verify = auth.AUTH_EMAIL_REQUIRE_VERIFICATION;
          // An address someone else added but never confirmed does not block its owner, who
          // proves it with the code; the unconfirmed claim is dropped on success.
          const match = await findUserByEmail(tx, email);
          const taken = match && (match.verified || !verify) ? match : null;
          if (taken && (!verify || auth.AUTH_SHOW_ACCOUNT_EXISTENCE_HINTS)) {
            return invalidInput('email', inputErrors.emailAlreadyExists);
          }
          data.email = email;
          data.username = username ?? undefined;
          if (taken) {
            // Looks like a new address from outside; the mail tells the owner instead (Q7).
            data.dead_end = true;
            data.passcode_template = 'email_registration_attempted';
            return { kind: 'continue', states: ['passcode_confirmation'] };
          }
          data.user_id = randomUUID();
          data.passcode_template = 'email_verification';
          const summary = await registrationSink.summary(ctx);
          const credentials = credentialOnboarding(ctx, 'registration', summary);
          // Without a passcode step or credential states, MFA set-up comes right away.
          const mfa =
            !verify && credentials.length === 0 ? await mfaCreation(ctx, registrationSink) : [];
          return {
            kind: 'continue',
            states: [
              ...(verify ? ['passcode_confirmation'] : []),
              ...credentials,
              ...mfa,
              'success',
            ],
          };
        },
      },
      thirdpartyOauth,
      rememberMe,
    ],
  };

  /** A registration without an address: credentials, the address asked for before them. */
  async function byUsername(ctx: Ctx, username: string): Promise<Outcome> {
    const data = dataOf(ctx);
    data.username = username;
    data.user_id = randomUUID();
    const credentials = credentialOnboarding(
      ctx,
      'registration',
      await registrationSink.summary(ctx),
    );
    return { kind: 'continue', states: ['onboarding_email', ...credentials, 'success'] };
  }

  const passcode = passcodeConfirmation(async (ctx) => {
    dataOf(ctx).email_verified = true;
    return { kind: 'continue', states: await mfaCreation(ctx, registrationSink) };
  });

  const done = success(async (ctx) => {
    const data = dataOf(ctx);
    if (!data.user_id || data.dead_end) throw new Error('success without a new user');
    // A third-party sign-up created (or found) the user when the token was exchanged.
    if (data.login_method === 'third_party')
      return { userId: data.user_id, amr: thirdpartyAmr(ctx) };
    if (data.email && data.email_verified) await releaseUnconfirmedAddress(ctx.env.tx, data.email);
    await createUser(ctx.env.tx, {
      id: data.user_id,
      email: data.email ?? null,
      emailVerified: data.email_verified === true,
      username: data.username ?? null,
      passwordHash: data.password_hash ?? null,
      passkeyDeclined: data.passkey_declined === true,
      now: ctx.now,
    });
    const created = { userId: data.user_id, email: data.email?.toLowerCase() ?? null };
    ctx.afterCommit(() =>
      ctx.env.events.emit({ type: 'user.created', ...created, occurredAt: ctx.now }),
    );
    const pending = data.pending_credentials ?? [];
    for (const credential of pending) {
      if (!(await insertCredential(ctx.env.tx, data.user_id, credential, ctx.now))) {
        throw new Error('a WebAuthn credential of this registration was registered meanwhile');
      }
    }
    if (data.pending_otp) {
      await saveOtpSecret(ctx.env.tx, data.user_id, data.pending_otp.secret, data.pending_otp.step);
    }
    const amr = [
      ...(data.email_verified ? ['otp'] : []),
      ...(data.password_hash ? ['pwd'] : []),
      ...(pending.some((c) => !c.mfaOnly) ? ['passkey'] : []),
      ...(pending.some((c) => c.mfaOnly) ? ['security_key'] : []),
      ...(data.pending_otp ? ['totp'] : []),
    ];
    delete data.password_hash;
    delete data.pending_otp;
    return { userId: data.user_id, amr };
  }, false);

  return {
    name: 'registration',
    ttlSeconds: auth.AUTH_FLOW_TTL_SECONDS,
    initial: ['preflight', 'registration_init'],
    states: Object.fromEntries(
      [
        preflight,
        registrationInit,
        passcode,
        thirdpartyState,
        ...credentialStates(registrationSink),
        onboardingEmail('flow'),
        done,
      ].map((s) => [s.name, s]),
    ),
  };
}
