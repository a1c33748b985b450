import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

/**
 * A small OAuth 2.0 / OpenID Connect provider on 127.0.0.1 for tests: discovery, an
 * authorisation endpoint that answers at once (as the person in `nextAccount`, or "denied"),
 * a token endpoint that checks client secret, redirect URI and PKCE and signs an ID token
 * (RS256, with the nonce), userinfo and JWKS. It records what it was asked.
 */

export interface FakeAccount {
  sub: string;
  email?: string;
  email_verified?: boolean;
}

interface Grant {
  account: FakeAccount;
  challenge: string;
  redirectUri: string;
  nonce: string | undefined;
}

export interface FakeOidc {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The person who "signs in" at the next authorisation. */
  nextAccount: FakeAccount;
  /** The next authorisation is refused with error=access_denied. */
  deny: boolean;
  /** Token requests that failed a check (wrong secret, PKCE, redirect URI…). */
  refused: string[];
  /** Authorisation requests as received (query parameters). */
  authorizations: URLSearchParams[];
  /** The provider configuration for AUTH_THIRDPARTY_PROVIDERS. */
  config(id?: string, name?: string): Record<string, unknown>;
  close(): Promise<void>;
}

async function body(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return text;
}

export async function startFakeOidc(host = '127.0.0.1'): Promise<FakeOidc> {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'fake-1', alg: 'RS256', use: 'sig' };
  const codes = new Map<string, Grant>();
  const accessTokens = new Map<string, FakeAccount>();
  let issuer = '';

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    };
    if (url.pathname === '/.well-known/openid-configuration') {
      return json(200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        userinfo_endpoint: `${issuer}/userinfo`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        code_challenge_methods_supported: ['S256'],
      });
    }
    if (url.pathname === '/jwks') return json(200, { keys: [jwk] });
    if (url.pathname === '/authorize') {
      fake.authorizations.push(url.searchParams);
      const redirectUri = url.searchParams.get('redirect_uri') ?? '';
      const back = new URL(redirectUri);
      const state = url.searchParams.get('state');
      if (state) back.searchParams.set('state', state);
      if (fake.deny) {
        fake.deny = false;
        back.searchParams.set('error', 'access_denied');
        back.searchParams.set('error_description', 'The user denied access');
      } else {
        const code = randomBytes(16).toString('hex');
        codes.set(code, {
          account: fake.nextAccount,
          challenge: url.searchParams.get('code_challenge') ?? '',
          redirectUri,
          nonce: url.searchParams.get('nonce') ?? undefined,
        });
        back.searchParams.set('code', code);
      }
      res.writeHead(302, { location: back.href }).end();
      return;
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      const form = new URLSearchParams(await body(req));
      const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const [id, secret] = basic
        ? Buffer.from(basic, 'base64').toString().split(':').map(decodeURIComponent)
        : [];
      const grant = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      const refuse = (why: string) => {
        fake.refused.push(why);
        json(400, { error: 'invalid_grant' });
      };
      if (id !== fake.clientId || secret !== fake.clientSecret) return refuse('client');
      if (!grant) return refuse('code');
      if (form.get('redirect_uri') !== grant.redirectUri) return refuse('redirect_uri');
      const verifier = form.get('code_verifier') ?? '';
      if (createHash('sha256').update(verifier).digest('base64url') !== grant.challenge)
        return refuse('pkce');
      const accessToken = randomBytes(16).toString('hex');
      accessTokens.set(accessToken, grant.account);
      const idToken = await new SignJWT({
        ...grant.account,
        ...(grant.nonce ? { nonce: grant.nonce } : {}),
      })
        .setProtectedHeader({ alg: 'RS256', kid: 'fake-1' })
        .setIssuer(issuer)
        .setAudience(fake.clientId)
        .setSubject(grant.account.sub)
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(privateKey);
      return json(200, {
        access_token: accessToken,
        token_type: 'Bearer',
        expires_in: 300,
        id_token: idToken,
      });
    }
    if (url.pathname === '/userinfo') {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const account = token ? accessTokens.get(token) : undefined;
      return account ? json(200, account) : json(401, { error: 'invalid_token' });
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  issuer = `http://${host}:${(server.address() as AddressInfo).port}`;

  const fake: FakeOidc = {
    issuer,
    clientId: 'sprechstunde-test',
    clientSecret: randomBytes(12).toString('hex'),
    nextAccount: { sub: 'fake-user-1', email: 'fake@example.org', email_verified: true },
    deny: false,
    refused: [],
    authorizations: [],
    config(id = 'fakeid', name = 'FakeID') {
      return { id, name, issuer, client_id: fake.clientId, client_secret: fake.clientSecret };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}
