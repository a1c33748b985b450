import type { AuthConfig } from '../config';
import { flowErrors } from '../flow/errors';
import type { FlowDef, Outcome } from '../flow/types';
import { useTokenOnce } from '../saml';
import { EXCHANGE_TOKEN, resolveUser } from './thirdparty';
import { dataOf, overLimit, rateLimited, success, type AuthEnv, type State } from './shared';

/**
 * The token exchange flow (protocol §3.5, only when SAML is configured): it starts in
 * `thirdparty`, whose one action exchanges the `hanko_token` the SAML callback put into the
 * page URL (IdP- or SP-initiated) for a session. SAML sign-ins skip MFA and credential
 * onboarding like other third-party sign-ins.
 */
const thirdparty: State = {
  name: 'thirdparty',
  actions: [
    {
      ...EXCHANGE_TOKEN,
      async execute(ctx): Promise<Outcome> {
        const { saml, rateLimits } = ctx.env;
        const wait = await overLimit(
          rateLimits.passwordAttempt,
          `saml|${ctx.request.ip}|${ctx.flowId}`,
        );
        if (wait !== null) return rateLimited(ctx, wait, 'retry_after');
        const who = saml.redeem(String(ctx.input.token));
        // Unknown, expired or already exchanged (here or in another flow): Hanko's answer to a
        // token it no longer has. Nothing of the account is touched.
        if (!who || !(await useTokenOnce(ctx.env.tx, who.jti, who.expiresAt, ctx.now))) {
          return { kind: 'error', error: flowErrors.technical };
        }
        const resolved = await resolveUser(ctx, who);
        if ('error' in resolved) return { kind: 'error', error: resolved.error! };
        const data = dataOf(ctx);
        data.user_id = resolved.userId;
        data.email = who.email ?? undefined;
        data.login_method = 'third_party';
        data.thirdparty_provider = who.provider;
        ctx.preventRevert();
        return { kind: 'continue', states: ['success'] };
      },
    },
  ],
};

export function tokenExchangeFlow(_auth: AuthConfig): FlowDef<AuthEnv> {
  const done = success(async (ctx) => {
    const data = dataOf(ctx);
    if (!data.user_id) throw new Error('success without a user');
    return { userId: data.user_id, amr: [`ext:${data.thirdparty_provider ?? 'saml'}`] };
  }, true);
  return {
    name: 'token_exchange',
    // Hanko: 60 minutes for this flow.
    ttlSeconds: 60 * 60,
    initial: ['thirdparty'],
    states: Object.fromEntries([thirdparty, done].map((s) => [s.name, s])),
  };
}
