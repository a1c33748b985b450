import { randomUUID } from 'node:crypto';
import { PASSWORD_MAX_BYTES, type AuthConfig } from '../config';
import { inputErrors, invalidInput } from '../flow/errors';
import type { FlowDef, InputDef } from '../flow/types';
import { hashPassword, passwordPolicyError } from '../passwords';
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
  success,
  usernameInput,
  USERNAME_PATTERN,
  type AuthEnv,
  type State,
} from './shared';

export function registrationFlow(auth: AuthConfig): FlowDef<AuthEnv> {
  const usernames = auth.AUTH_USERNAME !== 'off';
  const inputs = (): InputDef[] => [emailInput(auth), ...(usernames ? [usernameInput(auth)] : [])];

  const registrationInit: State = {
    name: 'registration_init',
    actions: [
      {
        name: 'register_login_identifier',
        description: 'Enter an identifier to register.',
        inputs,
        enabled: () => auth.AUTH_SIGNUP_ENABLED,
        async execute(ctx) {
          const { tx } = ctx.env;
          const data = dataOf(ctx);
          const email = String(ctx.input.email);
          const username =
            typeof ctx.input.username === 'string' && ctx.input.username
              ? ctx.input.username
              : null;
          if (username) {
            if (!USERNAME_PATTERN.test(username))
              return invalidInput('username', inputErrors.invalidUsername);
            if (await findUserByUsername(tx, username)) {
              return invalidInput('username', inputErrors.usernameAlreadyExists);
            }
          }
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
          return {
            kind: 'continue',
            states: [
              ...(verify ? ['passcode_confirmation'] : []),
              ...(auth.AUTH_PASSWORD_ENABLED ? ['password_creation'] : []),
              'success',
            ],
          };
        },
      },
    ],
  };

  const passcode = passcodeConfirmation(async (ctx) => {
    dataOf(ctx).email_verified = true;
    return { kind: 'continue', states: [] };
  });

  const passwordCreation: State = {
    name: 'password_creation',
    back: true,
    actions: [
      {
        name: 'register_password',
        description: 'Submit a new password.',
        inputs: () => [
          {
            name: 'new_password',
            type: 'password',
            required: !auth.AUTH_PASSWORD_OPTIONAL,
            minLength: auth.AUTH_PASSWORD_MIN_LENGTH,
            maxLength: PASSWORD_MAX_BYTES,
          },
        ],
        async execute(ctx) {
          const password = typeof ctx.input.new_password === 'string' ? ctx.input.new_password : '';
          if (!password) return invalidInput('new_password', inputErrors.valueMissing);
          const policy = passwordPolicyError(password, auth.AUTH_PASSWORD_MIN_LENGTH);
          if (policy) {
            return invalidInput(
              'new_password',
              policy === 'too_short' ? inputErrors.valueTooShort : inputErrors.valueTooLong,
            );
          }
          dataOf(ctx).password_hash = await hashPassword(password);
          ctx.preventRevert();
          return { kind: 'continue', states: [] };
        },
      },
      {
        name: 'skip',
        description: 'Skip',
        // Without a password the person signs in by passcode, so the address must be there.
        enabled: (ctx) =>
          auth.AUTH_PASSWORD_OPTIONAL && auth.AUTH_PASSCODE_LOGIN && !!dataOf(ctx).email,
        execute: async () => ({ kind: 'continue', states: [] }),
      },
    ],
  };

  const done = success(async (ctx) => {
    const data = dataOf(ctx);
    if (!data.user_id || data.dead_end) throw new Error('success without a new user');
    if (data.email && data.email_verified) await releaseUnconfirmedAddress(ctx.env.tx, data.email);
    await createUser(ctx.env.tx, {
      id: data.user_id,
      email: data.email ?? null,
      emailVerified: data.email_verified === true,
      username: data.username ?? null,
      passwordHash: data.password_hash ?? null,
      now: ctx.now,
    });
    const amr = [...(data.email_verified ? ['otp'] : []), ...(data.password_hash ? ['pwd'] : [])];
    delete data.password_hash;
    return { userId: data.user_id, amr };
  }, false);

  return {
    name: 'registration',
    ttlSeconds: auth.AUTH_FLOW_TTL_SECONDS,
    initial: ['preflight', 'registration_init'],
    states: Object.fromEntries(
      [preflight, registrationInit, passcode, passwordCreation, done].map((s) => [s.name, s]),
    ),
  };
}
