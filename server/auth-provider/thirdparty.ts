import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { z } from 'zod';
import type { Tx } from '../db/client';
import { authIdentities } from '../db/schema/index';
import type { AuthConfig } from './config';
import type { SecretBox } from './secret-box';

/**
 * Third-party sign-in (protocol §3.6 `thirdparty`): OAuth 2.0 authorization code with PKCE,
 * OpenID Connect when the provider has an issuer (discovery, signed ID token with nonce).
 * Done with fetch and jose: the state, the server's PKCE verifier and the one-time
 * `hanko_token` travel sealed (AES-256-GCM) instead of living in tables.
 */

const providerSchema = z
  .object({
    /** Sent as the `provider` input and shown in `ext:<id>`. */
    id: z.string().regex(/^[a-z0-9_-]{1,40}$/),
    /** Shown on the button ("Weiter mit <name>"). */
    name: z.string().min(1).max(60),
    /** OpenID Connect issuer: endpoints come from its discovery document unless given. */
    issuer: z.url().optional(),
    authorization_url: z.url().optional(),
    token_url: z.url().optional(),
    userinfo_url: z.url().optional(),
    jwks_url: z.url().optional(),
    client_id: z.string().min(1),
    client_secret: z.string().min(1),
    scopes: z.array(z.string().regex(/^\S+$/)).default(['openid', 'email', 'profile']),
    token_auth: z
      .enum(['client_secret_basic', 'client_secret_post'])
      .default('client_secret_basic'),
  })
  .refine(
    (p) => p.issuer || (p.authorization_url && p.token_url && (p.userinfo_url || p.jwks_url)),
    {
      message: 'needs issuer, or authorization_url, token_url and userinfo_url (or jwks_url)',
    },
  );

export type ThirdPartyProvider = z.infer<typeof providerSchema>;

/** AUTH_THIRDPARTY_PROVIDERS: a JSON array of providers; unset or empty: none. */
export function parseProviders(raw: string | undefined): ThirdPartyProvider[] {
  if (!raw || raw.trim() === '') return [];
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new Error('AUTH_THIRDPARTY_PROVIDERS: not JSON');
  }
  const parsed = z.array(providerSchema).safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`AUTH_THIRDPARTY_PROVIDERS: ${issues.join('; ')}`);
  }
  const ids = parsed.data.map((p) => p.id);
  if (new Set(ids).size !== ids.length)
    throw new Error('AUTH_THIRDPARTY_PROVIDERS: ids must be unique');
  return parsed.data;
}

/** What the provider said about the person. */
export interface ProviderAccount {
  provider: string;
  sub: string;
  email: string | null;
  emailVerified: boolean;
}

interface SealedState {
  t: 'state';
  flow: string;
  flowId: string;
  provider: string;
  redirectTo: string;
  verifier: string;
  nonce: string;
  binding: string;
  exp: number;
}

interface SealedToken extends ProviderAccount {
  t: 'token';
  flowId: string;
  jti: string;
  exp: number;
}

interface Endpoints {
  authorization: string;
  token: string;
  userinfo?: string;
  jwks?: JWTVerifyGetKey;
  issuer?: string;
}

const STATE_SECONDS = 300;
const TOKEN_SECONDS = 120;
const FETCH_TIMEOUT_MS = 10_000;

const random = (bytes = 32) => randomBytes(bytes).toString('base64url');

/** A redirect URL is allowed when it equals an entry, or starts with an entry ending in `*`. */
export function redirectAllowed(url: string, allowed: string[]): boolean {
  if (!URL.canParse(url)) return false;
  const normal = new URL(url).href;
  return allowed.some((entry) =>
    entry.endsWith('*') ? normal.startsWith(entry.slice(0, -1)) : normal === new URL(entry).href,
  );
}

function withParams(url: string, params: Record<string, string>): string {
  const target = new URL(url);
  for (const [key, value] of Object.entries(params)) target.searchParams.set(key, value);
  return target.href;
}

export interface ThirdPartyOptions {
  auth: AuthConfig;
  secrets: SecretBox;
  publicUrl: string;
  fetch?: typeof fetch;
  now?: () => Date;
}

export function createThirdParty(options: ThirdPartyOptions) {
  const { auth, secrets, publicUrl } = options;
  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? (() => new Date());
  const providers = parseProviders(auth.AUTH_THIRDPARTY_PROVIDERS);
  const origin = new URL(publicUrl).origin;
  const callbackUrl = auth.AUTH_THIRDPARTY_CALLBACK_URL ?? `${origin}/auth/thirdparty/callback`;
  const allowedRedirects = (auth.AUTH_THIRDPARTY_REDIRECT_URLS ?? `${origin}/*`)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const errorRedirect = auth.AUTH_THIRDPARTY_ERROR_REDIRECT_URL ?? `${origin}/login`;
  const cookieName = 'hanko_thirdparty_state';
  const endpointCache = new Map<string, Promise<Endpoints>>();

  const byId = (id: string) => providers.find((p) => p.id === id) ?? null;

  async function discover(p: ThirdPartyProvider): Promise<Endpoints> {
    let doc: Record<string, unknown> = {};
    if (p.issuer && !(p.authorization_url && p.token_url && (p.userinfo_url || p.jwks_url))) {
      const res = await doFetch(
        `${p.issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`,
        {
          signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
        },
      );
      if (!res.ok) throw new Error(`discovery of ${p.id} answered ${res.status}`);
      doc = (await res.json()) as Record<string, unknown>;
    }
    const pick = (given: string | undefined, key: string) =>
      given ?? (typeof doc[key] === 'string' ? (doc[key] as string) : undefined);
    const authorization = pick(p.authorization_url, 'authorization_endpoint');
    const token = pick(p.token_url, 'token_endpoint');
    const userinfo = pick(p.userinfo_url, 'userinfo_endpoint');
    const jwksUrl = pick(p.jwks_url, 'jwks_uri');
    if (!authorization || !token)
      throw new Error(`provider ${p.id} has no authorization/token endpoint`);
    return {
      authorization,
      token,
      ...(userinfo ? { userinfo } : {}),
      ...(jwksUrl ? { jwks: createRemoteJWKSet(new URL(jwksUrl)) } : {}),
      ...(p.issuer ? { issuer: p.issuer } : {}),
    };
  }

  function endpoints(p: ThirdPartyProvider): Promise<Endpoints> {
    let cached = endpointCache.get(p.id);
    if (!cached) {
      cached = discover(p);
      cached.catch(() => endpointCache.delete(p.id));
      endpointCache.set(p.id, cached);
    }
    return cached;
  }

  function stateCookie(value: string, maxAge: number) {
    const parts = [`${cookieName}=${value}`, 'Path=/', `Max-Age=${maxAge}`, 'HttpOnly'];
    parts.push(...(auth.AUTH_COOKIE_SECURE ? ['Secure', 'SameSite=None'] : ['SameSite=Lax']));
    if (auth.AUTH_COOKIE_DOMAIN) parts.push(`Domain=${auth.AUTH_COOKIE_DOMAIN}`);
    return parts.join('; ');
  }

  /** The provider's authorisation URL for a flow, and the cookie that binds it to the browser. */
  async function begin(input: {
    flow: string;
    flowId: string;
    provider: string;
    redirectTo: string;
  }) {
    const p = byId(input.provider);
    if (!p) throw new Error(`unknown provider ${input.provider}`);
    const e = await endpoints(p);
    const verifier = random(48);
    const nonce = random(16);
    const binding = random(16);
    const state: SealedState = {
      t: 'state',
      flow: input.flow,
      flowId: input.flowId,
      provider: p.id,
      redirectTo: input.redirectTo,
      verifier,
      nonce,
      binding,
      exp: now().getTime() + STATE_SECONDS * 1000,
    };
    const url = withParams(e.authorization, {
      response_type: 'code',
      client_id: p.client_id,
      redirect_uri: callbackUrl,
      scope: p.scopes.join(' '),
      state: secrets.seal(JSON.stringify(state)),
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      ...(p.scopes.includes('openid') ? { nonce } : {}),
    });
    return { url, cookie: stateCookie(binding, STATE_SECONDS) };
  }

  function open<T extends { t: string; exp: number }>(sealed: string, type: T['t']): T | null {
    try {
      const value = JSON.parse(secrets.open(sealed)) as T;
      if (value.t !== type || value.exp <= now().getTime()) return null;
      return value;
    } catch {
      return null;
    }
  }

  async function account(
    p: ThirdPartyProvider,
    state: SealedState,
    code: string,
  ): Promise<ProviderAccount> {
    const e = await endpoints(p);
    const form = new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: callbackUrl,
      code_verifier: state.verifier,
    });
    const headers: Record<string, string> = {
      accept: 'application/json',
      'content-type': 'application/x-www-form-urlencoded',
    };
    if (p.token_auth === 'client_secret_post') {
      form.set('client_id', p.client_id);
      form.set('client_secret', p.client_secret);
    } else {
      const basic = `${encodeURIComponent(p.client_id)}:${encodeURIComponent(p.client_secret)}`;
      headers.authorization = `Basic ${Buffer.from(basic).toString('base64')}`;
    }
    const res = await doFetch(e.token, {
      method: 'POST',
      headers,
      body: form,
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
    if (!res.ok) throw new Error(`token endpoint of ${p.id} answered ${res.status}`);
    const tokens = (await res.json()) as { access_token?: unknown; id_token?: unknown };
    let claims: Record<string, unknown> = {};
    if (typeof tokens.id_token === 'string' && e.jwks) {
      const { payload } = await jwtVerify(tokens.id_token, e.jwks, {
        audience: p.client_id,
        ...(e.issuer ? { issuer: e.issuer } : {}),
      });
      if (payload.nonce !== state.nonce) throw new Error(`ID token of ${p.id}: nonce mismatch`);
      claims = payload;
    }
    if (
      (claims.sub === undefined || claims.email === undefined) &&
      e.userinfo &&
      typeof tokens.access_token === 'string'
    ) {
      const info = await doFetch(e.userinfo, {
        headers: { accept: 'application/json', authorization: `Bearer ${tokens.access_token}` },
        signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      });
      if (!info.ok) throw new Error(`userinfo endpoint of ${p.id} answered ${info.status}`);
      const data = (await info.json()) as Record<string, unknown>;
      const infoSub = data.sub ?? data.id;
      if (claims.sub !== undefined && String(infoSub) !== String(claims.sub)) {
        throw new Error(`userinfo of ${p.id}: another subject than the ID token`);
      }
      claims = { ...data, ...claims, sub: claims.sub ?? infoSub };
    }
    if (claims.sub === undefined || claims.sub === null || String(claims.sub) === '') {
      throw new Error(`provider ${p.id} named no subject`);
    }
    const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : null;
    return {
      provider: p.id,
      sub: String(claims.sub),
      email: email || null,
      emailVerified: claims.email_verified === true || claims.email_verified === 'true',
    };
  }

  /**
   * GET/POST /thirdparty/callback: checks the state and its cookie, exchanges the code and
   * redirects to `redirect_to` with `?hanko_token=…`, or with `?error=…&error_description=…`.
   */
  async function callback(
    params: Record<string, unknown>,
    cookie: string | null,
    onError: (error: unknown) => void,
  ): Promise<{ location: string; cookie: string }> {
    const clear = stateCookie('', 0);
    const str = (key: string) =>
      typeof params[key] === 'string' ? (params[key] as string) : undefined;
    const sealed = str('state');
    const state = sealed ? open<SealedState>(sealed, 'state') : null;
    if (!state) {
      return {
        location: withParams(errorRedirect, {
          error: 'invalid_request',
          error_description: 'invalid or expired state',
        }),
        cookie: clear,
      };
    }
    const back = (error: string, description: string) => ({
      location: withParams(state.redirectTo, { error, error_description: description }),
      cookie: clear,
    });
    if (!cookie || cookie !== state.binding)
      return back('invalid_request', 'state does not belong to this browser');
    const providerError = str('error');
    if (providerError) {
      const known = [
        'access_denied',
        'invalid_request',
        'unauthorized_client',
        'invalid_scope',
        'server_error',
        'temporarily_unavailable',
      ];
      return back(
        known.includes(providerError) ? providerError : 'server_error',
        str('error_description') ?? providerError,
      );
    }
    const code = str('code');
    const p = byId(state.provider);
    if (!code || !p) return back('invalid_request', 'missing code');
    try {
      const who = await account(p, state, code);
      const token: SealedToken = {
        t: 'token',
        ...who,
        flowId: state.flowId,
        jti: randomUUID(),
        exp: now().getTime() + TOKEN_SECONDS * 1000,
      };
      return {
        location: withParams(state.redirectTo, {
          hanko_token: secrets.seal(JSON.stringify(token)),
        }),
        cookie: clear,
      };
    } catch (error) {
      onError(error);
      return back('server_error', 'could not sign in with the provider');
    }
  }

  /** The account a `hanko_token` names, when it is fresh and was made for this flow. */
  function redeem(token: string, flowId: string): (ProviderAccount & { jti: string }) | null {
    const value = open<SealedToken>(token, 'token');
    if (!value || value.flowId !== flowId) return null;
    return {
      provider: value.provider,
      sub: value.sub,
      email: value.email,
      emailVerified: value.emailVerified,
      jti: value.jti,
    };
  }

  return {
    providers,
    enabled: providers.length > 0,
    /** `allowed_values` of the `provider` input, sorted by name. */
    allowedValues: () =>
      [...providers]
        .sort((a, b) => a.name.localeCompare(b.name))
        .map((p) => ({ value: p.id, name: p.name })),
    redirectAllowed: (url: string) => redirectAllowed(url, allowedRedirects),
    begin,
    callback,
    redeem,
    cookieName,
  };
}

export type ThirdParty = ReturnType<typeof createThirdParty>;

/** The user a provider account is linked to. */
export async function identityUser(tx: Tx, provider: string, sub: string): Promise<string | null> {
  const [row] = await tx
    .select({ userId: authIdentities.userId })
    .from(authIdentities)
    .where(and(eq(authIdentities.provider, provider), eq(authIdentities.providerUserId, sub)));
  return row?.userId ?? null;
}

export async function linkIdentity(tx: Tx, userId: string, who: ProviderAccount, at: Date) {
  const iso = at.toISOString();
  await tx.insert(authIdentities).values({
    userId,
    provider: who.provider,
    providerUserId: who.sub,
    email: who.email,
    createdAt: iso,
    updatedAt: iso,
  });
}

export async function identitiesOf(tx: Tx, userId: string) {
  return tx.select().from(authIdentities).where(eq(authIdentities.userId, userId));
}
