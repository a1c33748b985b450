import { randomUUID } from 'node:crypto';
import { flowErrors, inputErrors, invalidInput } from '../flow/errors';
import type { FlowErrorDef, Outcome } from '../flow/types';
import { useTokenOnce } from '../saml';
import { identityUser, linkIdentity } from '../thirdparty';
import { createUser, findUserByEmail, releaseUnconfirmedAddress } from '../users';
import { dataOf, overLimit, rateLimited, type Action, type Ctx, type State } from './shared';

/** No account can be linked: the provider did not vouch for an address. */
export const thirdPartyUnverifiedEmail: FlowErrorDef = {
  status: 403,
  code: 'third_party_unverified_email',
  message: 'The third party provider did not verify the email address.',
};

/** `thirdparty_oauth` on login_init / registration_init (protocol §3.6). */
export const thirdpartyOauth: Action = {
  name: 'thirdparty_oauth',
  description: 'Sign in or sign up with a third party provider via OAuth.',
  enabled: (ctx) => ctx.env.thirdparty.enabled,
  inputs: (ctx) => [
    {
      name: 'provider',
      type: 'string',
      required: true,
      hidden: true,
      maxLength: 100,
      allowedValues: ctx.env.thirdparty.allowedValues(),
    },
    { name: 'redirect_to', type: 'string', required: true, hidden: true, maxLength: 2000 },
    { name: 'code_verifier', type: 'string', hidden: true, maxLength: 128 },
  ],
  async execute(ctx) {
    const { thirdparty } = ctx.env;
    const redirectTo = String(ctx.input.redirect_to);
    if (!thirdparty.redirectAllowed(redirectTo))
      return invalidInput('redirect_to', inputErrors.valueInvalid);
    const data = dataOf(ctx);
    data.thirdparty_provider = String(ctx.input.provider);
    const verifier = ctx.input.code_verifier;
    if (typeof verifier === 'string' && verifier !== '') data.thirdparty_code_verifier = verifier;
    else delete data.thirdparty_code_verifier;
    const { url, cookie } = await thirdparty.begin({
      flow: ctx.flowName,
      flowId: ctx.flowId,
      provider: data.thirdparty_provider,
      redirectTo,
    });
    ctx.payload.redirect_url = url;
    const existing = ctx.headers['set-cookie'];
    ctx.headers['set-cookie'] = [
      ...(Array.isArray(existing) ? existing : existing ? [existing] : []),
      cookie,
    ];
    return { kind: 'continue', states: ['thirdparty'] };
  },
};

/**
 * An address of a domain that signs in by SAML goes to its identity provider instead of a
 * code or password (Hanko's continue_with_login_identifier and register_login_identifier):
 * `thirdparty` with the IdP URL in `redirect_url`, which the widget follows like an OAuth
 * redirect; the IdP's answer comes back to the sign-in page with a `hanko_token` for
 * exchange_token. Null when SAML does not serve the address's domain.
 */
export async function samlDivert(ctx: Ctx, email: string): Promise<Outcome | null> {
  const { saml } = ctx.env;
  if (!saml.enabled) return null;
  const to = await saml.divert(email);
  if (!to) return null;
  const data = dataOf(ctx);
  data.thirdparty_provider = to.provider;
  delete data.thirdparty_code_verifier;
  ctx.payload.redirect_url = to.url;
  return { kind: 'continue', states: ['thirdparty'] };
}

/**
 * The person behind a provider account: the linked user; else the user whose confirmed
 * address the provider vouched for (linked now); else a new user (when sign-up is on).
 */
export async function resolveUser(
  ctx: Ctx,
  who: { provider: string; sub: string; email: string | null; emailVerified: boolean },
) {
  const { tx, auth } = ctx.env;
  const linked = await identityUser(tx, who.provider, who.sub);
  if (linked) return { userId: linked };
  if (!who.email || !who.emailVerified) return { error: thirdPartyUnverifiedEmail };
  const owner = await findUserByEmail(tx, who.email);
  if (owner?.verified) {
    await linkIdentity(tx, owner.userId, who, ctx.now);
    return { userId: owner.userId };
  }
  if (!auth.AUTH_SIGNUP_ENABLED) return { error: flowErrors.operationNotPermitted };
  // Someone else's unconfirmed claim does not keep the address from its proven owner.
  await releaseUnconfirmedAddress(tx, who.email);
  const userId = randomUUID();
  await createUser(tx, {
    id: userId,
    email: who.email,
    emailVerified: true,
    username: null,
    passwordHash: null,
    now: ctx.now,
  });
  await linkIdentity(tx, userId, who, ctx.now);
  const email = who.email.toLowerCase();
  ctx.afterCommit(() =>
    ctx.env.events.emit({ type: 'user.created', userId, email, occurredAt: ctx.now }),
  );
  return { userId, created: true };
}

/** The one action of both `thirdparty` states (OAuth here, SAML in token-exchange.ts). */
export const EXCHANGE_TOKEN = {
  name: 'exchange_token',
  description: 'Exchange a one time token.',
  inputs: () => [
    { name: 'token', type: 'string', required: true, hidden: true, maxLength: 4000 },
    { name: 'code_verifier', type: 'string', hidden: true, maxLength: 128 },
  ],
} satisfies Omit<State['actions'][number], 'execute'>;

/** The `thirdparty` state: the SDK comes back with `hanko_token` and runs exchange_token. */
export const thirdpartyState: State = {
  name: 'thirdparty',
  back: true,
  actions: [
    {
      ...EXCHANGE_TOKEN,
      async execute(ctx): Promise<Outcome> {
        const { thirdparty, rateLimits } = ctx.env;
        const data = dataOf(ctx);
        // Per address and flow: the token is sealed (AES-GCM), so guessing is hopeless anyway;
        // the limit stops hammering one flow without locking out a shared address.
        const wait = await overLimit(
          rateLimits.passwordAttempt,
          `thirdparty|${ctx.request.ip}|${ctx.flowId}`,
        );
        if (wait !== null) return rateLimited(ctx, wait, 'retry_after');
        if (
          data.thirdparty_code_verifier &&
          ctx.input.code_verifier !== data.thirdparty_code_verifier
        ) {
          return invalidInput('code_verifier', inputErrors.valueInvalid);
        }
        // A SAML sign-in (an address of a SAML domain, see samlDivert) comes back with the
        // token of the SAML callback, which knows no flow: it is recorded as used instead.
        const saml = data.thirdparty_provider?.startsWith('saml:')
          ? ctx.env.saml.redeem(String(ctx.input.token))
          : null;
        const who = saml ?? thirdparty.redeem(String(ctx.input.token), ctx.flowId);
        const used = data.thirdparty_used ?? [];
        if (!who || who.provider !== data.thirdparty_provider || used.includes(who.jti)) {
          return { kind: 'error', error: flowErrors.technical };
        }
        if (saml && !(await useTokenOnce(ctx.env.tx, saml.jti, saml.expiresAt, ctx.now))) {
          return { kind: 'error', error: flowErrors.technical };
        }
        data.thirdparty_used = [...used, who.jti];
        const resolved = await resolveUser(ctx, who);
        if ('error' in resolved) return { kind: 'error', error: resolved.error! };
        data.user_id = resolved.userId;
        data.email = who.email ?? undefined;
        data.dead_end = false;
        data.login_method = 'third_party';
        ctx.preventRevert();
        // Third-party sign-ins skip MFA and credential onboarding (protocol §3.2, Q8).
        return { kind: 'continue', states: ['success'] };
      },
    },
  ],
};

/** amr of a third-party sign-in. */
export const thirdpartyAmr = (ctx: Ctx) => [`ext:${dataOf(ctx).thirdparty_provider ?? 'unknown'}`];
