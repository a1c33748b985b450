import { randomUUID } from 'node:crypto';
import { generateServiceProviderMetadata, SAML, type Profile } from '@node-saml/node-saml';
import { lt } from 'drizzle-orm';
import { z } from 'zod';
import type { Tx } from '../db/client';
import { authUsedTokens } from '../db/schema/index';
import type { AuthConfig } from './config';
import type { SecretBox } from './secret-box';
import { redirectAllowed, type ProviderAccount } from './thirdparty';

/**
 * SAML 2.0 sign-in with @node-saml/node-saml (protocol §1.1, §3.5): an e-mail domain maps to
 * an identity provider. `/saml/auth` sends the browser there (HTTP-Redirect binding, the
 * state sealed in RelayState); the provider posts its signed response to `/saml/callback`,
 * which checks signature, audience, destination and validity times, and sends the browser on
 * to `redirect_to` with a sealed one-time `hanko_token`; `/token_exchange` (or the login
 * flow's `thirdparty` state) exchanges it for a session.
 */

const providerSchema = z.object({
  /** E-mail domains whose people sign in at this provider. */
  domains: z.array(z.string().regex(/^[a-z0-9.-]+\.[a-z]{2,}$/)).min(1),
  name: z.string().min(1).max(60),
  /** The provider's single sign-on URL (HTTP-Redirect binding). */
  entry_point: z.url(),
  /** The provider's signing certificate(s), PEM or base64. */
  idp_cert: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
  /** Expected Issuer of its responses (optional). */
  idp_issuer: z.string().min(1).optional(),
});

export type SamlProvider = z.infer<typeof providerSchema>;

/** AUTH_SAML_PROVIDERS: a JSON array; unset or empty: SAML off. */
export function parseSamlProviders(raw: string | undefined): SamlProvider[] {
  if (!raw || raw.trim() === '') return [];
  const parsed = z.array(providerSchema).safeParse(JSON.parse(raw));
  if (!parsed.success) {
    throw new Error(
      `AUTH_SAML_PROVIDERS: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  return parsed.data;
}

const STATE_SECONDS = 10 * 60;
const TOKEN_SECONDS = 60;

interface SealedState {
  t: 'saml_state';
  domain: string;
  redirectTo: string;
  exp: number;
}

interface SealedToken extends ProviderAccount {
  t: 'saml_token';
  jti: string;
  exp: number;
}

/** Attributes IdPs commonly put the address in. */
const EMAIL_ATTRIBUTES = [
  'email',
  'mail',
  'urn:oid:0.9.2342.19200300.100.1.3',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
];

export interface SamlOptions {
  auth: AuthConfig;
  secrets: SecretBox;
  publicUrl: string;
  now?: () => Date;
}

export function createSaml(options: SamlOptions) {
  const { auth, secrets } = options;
  const now = options.now ?? (() => new Date());
  const providers = parseSamlProviders(auth.AUTH_SAML_PROVIDERS);
  const origin = new URL(options.publicUrl).origin;
  const entityId = `${origin}/auth/saml/metadata`;
  const callbackUrl = `${origin}/auth/saml/callback`;
  const allowedRedirects = (auth.AUTH_THIRDPARTY_REDIRECT_URLS ?? `${origin}/*`)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const defaultRedirect = `${origin}/login`;

  const byDomain = (domain: string) => {
    const d = domain.trim().toLowerCase();
    return providers.find((p) => p.domains.includes(d)) ?? null;
  };
  const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

  const clients = new Map<SamlProvider, SAML>();
  function client(p: SamlProvider) {
    let saml = clients.get(p);
    if (!saml) {
      saml = new SAML({
        entryPoint: p.entry_point,
        issuer: entityId,
        callbackUrl,
        idpCert: p.idp_cert,
        audience: entityId,
        ...(p.idp_issuer ? { idpIssuer: p.idp_issuer } : {}),
        // The assertion must be signed; an unsigned assertion in a signed response is refused too.
        wantAssertionsSigned: true,
        wantAuthnResponseSigned: false,
        // IdP-initiated sign-ins have no request to match; the validity window and the
        // one-time hanko_token bound the replay instead.
        validateInResponseTo: 'never' as never,
        acceptedClockSkewMs: 5_000,
        disableRequestedAuthnContext: true,
        identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      });
      clients.set(p, saml);
    }
    return saml;
  }

  function open<T extends { t: string; exp: number }>(sealed: string, type: T['t']): T | null {
    try {
      const value = JSON.parse(secrets.open(sealed)) as T;
      return value.t === type && value.exp > now().getTime() ? value : null;
    } catch {
      return null;
    }
  }

  const withParams = (url: string, params: Record<string, string>) => {
    const u = new URL(url);
    for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
    return u.toString();
  };

  /** The IdP URL for a domain (HTTP-Redirect binding, AuthnRequest + sealed RelayState). */
  async function begin(domain: string, redirectTo: string): Promise<string> {
    const p = byDomain(domain);
    if (!p) throw new Error(`no SAML provider for ${domain}`);
    const state: SealedState = {
      t: 'saml_state',
      domain: p.domains[0]!,
      redirectTo,
      exp: now().getTime() + STATE_SECONDS * 1000,
    };
    return client(p).getAuthorizeUrlAsync(secrets.seal(JSON.stringify(state)), undefined, {});
  }

  function addressOf(profile: Profile): string | null {
    for (const name of EMAIL_ATTRIBUTES) {
      const value = (profile as Record<string, unknown>)[name];
      const first = Array.isArray(value) ? value[0] : value;
      if (typeof first === 'string' && first.includes('@')) return first.trim().toLowerCase();
    }
    return profile.nameID?.includes('@') ? profile.nameID.trim().toLowerCase() : null;
  }

  /**
   * POST /saml/callback: validates the response with the provider of the state's domain (or,
   * IdP-initiated, the provider whose domain the address has) and answers where the browser
   * goes: `redirect_to?hanko_token=…`, or `?error=…`.
   */
  async function callback(
    body: Record<string, unknown>,
    onError: (error: unknown) => void,
  ): Promise<string> {
    const response = typeof body.SAMLResponse === 'string' ? body.SAMLResponse : null;
    const relay =
      typeof body.RelayState === 'string' && body.RelayState !== '' ? body.RelayState : null;
    const state = relay ? open<SealedState>(relay, 'saml_state') : null;
    const back = state?.redirectTo ?? withParams(defaultRedirect, { saml_hint: 'idp_initiated' });
    const fail = (error: string, description: string) =>
      withParams(back, { error, error_description: description });
    if (!response || (relay && !state))
      return fail('invalid_request', 'invalid or expired SAML state');
    try {
      // Which provider must have signed it: the state's, or (IdP-initiated) the one whose
      // domain the unverified address names — its signature is checked next anyway.
      let p = state ? byDomain(state.domain) : null;
      if (!p) {
        const xml = Buffer.from(response, 'base64').toString('utf8');
        const claimed = /@([a-z0-9.-]+\.[a-z]{2,})\s*</i.exec(xml)?.[1];
        p = claimed ? byDomain(claimed) : null;
      }
      if (!p) return fail('invalid_request', 'no SAML provider for this response');
      const { profile } = await client(p).validatePostResponseAsync({ SAMLResponse: response });
      if (!profile?.nameID) return fail('access_denied', 'no subject in the SAML response');
      const email = addressOf(profile);
      const token: SealedToken = {
        t: 'saml_token',
        provider: `saml:${p.domains[0]}`,
        sub: profile.nameID,
        email,
        // The provider vouches only for addresses of its own domains.
        emailVerified: !!email && p.domains.includes(domainOf(email)),
        jti: randomUUID(),
        exp: now().getTime() + TOKEN_SECONDS * 1000,
      };
      return withParams(back, { hanko_token: secrets.seal(JSON.stringify(token)) });
    } catch (error) {
      onError(error);
      return fail('access_denied', 'the SAML response was not accepted');
    }
  }

  /**
   * The account a SAML `hanko_token` names, while it is fresh. It does not mark the token
   * used: the exchange does that in its transaction (`useTokenOnce`).
   */
  function redeem(token: string): (ProviderAccount & { jti: string; expiresAt: Date }) | null {
    const value = open<SealedToken>(token, 'saml_token');
    if (!value) return null;
    return {
      provider: value.provider,
      sub: value.sub,
      email: value.email,
      emailVerified: value.emailVerified,
      jti: value.jti,
      expiresAt: new Date(value.exp),
    };
  }

  /**
   * Sends a sign-in of `email` to its domain's IdP, if SAML serves that domain: the IdP URL
   * (the state names the default page to come back to, like Hanko's `saml.default_redirect_url`)
   * and the provider id the returned token must name.
   */
  async function divert(email: string): Promise<{ url: string; provider: string } | null> {
    const p = byDomain(domainOf(email));
    if (!p) return null;
    return { url: await begin(p.domains[0]!, defaultRedirect), provider: `saml:${p.domains[0]}` };
  }

  return {
    enabled: providers.length > 0,
    provider: byDomain,
    providerForEmail: (email: string) => byDomain(domainOf(email)),
    redirectAllowed: (url: string) => redirectAllowed(url, allowedRedirects),
    defaultRedirect,
    begin,
    callback,
    redeem,
    divert,
    metadata: () =>
      generateServiceProviderMetadata({
        issuer: entityId,
        callbackUrl,
        wantAssertionsSigned: true,
        identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      }),
  };
}

export type Saml = ReturnType<typeof createSaml>;

/**
 * Records a one-time token id as used, in the exchange's transaction; false when it was used
 * before (here or by another instance: the primary key decides). Ids of tokens that have
 * expired anyway are deleted on the way.
 */
export async function useTokenOnce(
  tx: Tx,
  id: string,
  expiresAt: Date,
  now: Date,
): Promise<boolean> {
  await tx.delete(authUsedTokens).where(lt(authUsedTokens.expiresAt, now.toISOString()));
  const inserted = await tx
    .insert(authUsedTokens)
    .values({ id, expiresAt: expiresAt.toISOString() })
    .onConflictDoNothing()
    .returning({ id: authUsedTokens.id });
  return inserted.length === 1;
}
