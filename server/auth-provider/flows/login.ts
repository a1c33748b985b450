import type { AuthConfig } from '../config';
import { flowErrors, inputErrors, invalidInput } from '../flow/errors';
import type { FlowDef, InputDef } from '../flow/types';
import { checkPassword, hashPassword, passwordPolicyError, setPasswordHash } from '../passwords';
import { findUserByEmail, findUserByUsername, markEmailVerified, sessionEmail } from '../users';
import { PASSWORD_MAX_BYTES } from '../config';
import {
  dataOf,
  emailInput,
  overLimit,
  passcodeConfirmation,
  preflight,
  rateLimited,
  success,
  type AuthEnv,
  type Ctx,
  type State,
} from './shared';

/** Where a user goes once a credential is proven (phase 1: recovery, then success). */
function afterLogin(ctx: Ctx): string[] {
  return dataOf(ctx).recovery_pending ? ['login_password_recovery', 'success'] : ['success'];
}

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

  const loginInit: State = {
    name: 'login_init',
    actions: [
      {
        name: 'continue_with_login_identifier',
        description: 'Enter an identifier to login.',
        inputs: () => [identifierInput],
        enabled: () => passwords || passcodes,
        async execute(ctx) {
          const { tx } = ctx.env;
          const data = dataOf(ctx);
          const given = String(ctx.input[identifierInput.name]);
          const isEmail = given.includes('@');
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
    ],
  };

  const methodChooser: State = {
    name: 'login_method_chooser',
    back: true,
    actions: [
      {
        name: 'continue_to_password_login',
        description: 'Continue to the password login.',
        enabled: () => passwords,
        execute: async () => ({ kind: 'continue', states: ['login_password'] }),
      },
      {
        name: 'continue_to_passcode_confirmation',
        description: 'Continue to the passcode confirmation.',
        enabled: (ctx) => passcodes && !!dataOf(ctx).email,
        execute: async (ctx) => toPasscode(ctx, 'login'),
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
          return { kind: 'continue', states: afterLogin(ctx) };
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
          return { kind: 'continue', states: [] };
        },
      },
    ],
  };

  const passcode = passcodeConfirmation(async (ctx) => {
    const data = dataOf(ctx);
    await markEmailVerified(ctx.env.tx, data.user_id!, data.email!, ctx.now);
    data.login_method = 'passcode';
    return { kind: 'continue', states: afterLogin(ctx) };
  });

  const done = success(async (ctx) => {
    const data = dataOf(ctx);
    if (!data.user_id || data.dead_end) throw new Error('success without a user');
    return { userId: data.user_id, amr: [data.login_method === 'password' ? 'pwd' : 'otp'] };
  }, true);

  return {
    name: 'login',
    ttlSeconds: auth.AUTH_FLOW_TTL_SECONDS,
    initial: ['preflight', 'login_init'],
    states: Object.fromEntries(
      [preflight, loginInit, methodChooser, loginPassword, passwordRecovery, passcode, done].map(
        (s) => [s.name, s],
      ),
    ),
  };
}
