import { addEmail } from '../accounts';
import { inputErrors, invalidInput } from '../flow/errors';
import { findUserByEmail, releaseUnconfirmedAddress } from '../users';
import type { Outcome } from '../flow/types';
import { dataOf, emailChangedAfterCommit, type Ctx, type State } from './shared';

/** The address pattern of the protocol's `email` inputs (§2.3). */
const EMAIL_PATTERN = /^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$/;

/**
 * `onboarding_email`: an account without an address (registered by username or passkey, or
 * by a provider that gave none) is asked for one. With verification the address is stored
 * only after its code (`addOnboardingEmail` from the flow's passcode step); a taken address
 * leads to a code that never comes, like a taken address at registration (protocol Q7).
 * `store` says whether the user exists already (login) or is created at success.
 */
export function onboardingEmail(store: 'user' | 'flow'): State {
  return {
    name: 'onboarding_email',
    actions: [
      {
        name: 'email_address_set',
        description: 'Set an email address.',
        inputs: (ctx) => [
          {
            name: 'email',
            type: 'string',
            required: !ctx.env.auth.AUTH_EMAIL_OPTIONAL,
            maxLength: ctx.env.auth.AUTH_EMAIL_MAX_LENGTH,
            trim: true,
            lowercase: true,
            preserve: true,
          },
        ],
        async execute(ctx): Promise<Outcome> {
          const { auth, tx } = ctx.env;
          const data = dataOf(ctx);
          const email = typeof ctx.input.email === 'string' ? ctx.input.email : '';
          if (!email) {
            if (auth.AUTH_EMAIL_OPTIONAL) return { kind: 'continue', states: [] };
            return invalidInput('email', inputErrors.valueMissing);
          }
          if (!EMAIL_PATTERN.test(email)) return invalidInput('email', inputErrors.valueInvalid);
          const verify = auth.AUTH_EMAIL_REQUIRE_VERIFICATION;
          const match = await findUserByEmail(tx, email);
          const taken = match && (match.verified || !verify) ? match : null;
          if (taken && (!verify || auth.AUTH_SHOW_ACCOUNT_EXISTENCE_HINTS)) {
            return invalidInput('email', inputErrors.emailAlreadyExists);
          }
          data.email = email;
          if (!verify) {
            if (store === 'user') await addOnboardingEmail(ctx, false);
            return { kind: 'continue', states: [] };
          }
          data.onboarding_email = true;
          data.dead_end = !!taken;
          data.passcode_template = taken ? 'email_registration_attempted' : 'email_verification';
          return { kind: 'continue', states: ['passcode_confirmation'] };
        },
      },
      {
        name: 'skip',
        description: 'Skip',
        enabled: (ctx) => ctx.env.auth.AUTH_EMAIL_OPTIONAL,
        execute: async () => ({ kind: 'continue', states: [] }),
      },
    ],
  };
}

/** Stores the onboarding address of a signed-in user (its first, so primary). */
export async function addOnboardingEmail(ctx: Ctx, verified: boolean) {
  const { tx } = ctx.env;
  const data = dataOf(ctx);
  if (verified) await releaseUnconfirmedAddress(tx, data.email!);
  await addEmail(tx, data.user_id!, data.email!, verified, ctx.now);
  delete data.onboarding_email;
  await emailChangedAfterCommit(ctx, data.user_id!);
}
