import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthTestApp, uniqueEmail, type AuthTestApp, type FlowState } from '../support/auth-client';
import { createSamlIdp } from '../support/saml-idp';

// Issue 3: SAML 2.0 (protocol §1.1, §3.5) with a locally generated IdP key.

const idp = createSamlIdp();
const PUBLIC = 'http://localhost:3000';
const ACS = `${PUBLIC}/auth/saml/callback`;
const AUDIENCE = `${PUBLIC}/auth/saml/metadata`;
const DOMAIN = 'klinik.example';

let t: AuthTestApp;
beforeAll(async () => {
  t = await createAuthTestApp({
    env: {
      AUTH_SAML_PROVIDERS: JSON.stringify([
        { domains: [DOMAIN], name: 'Klinik', entry_point: 'https://idp.example.test/sso', idp_cert: idp.cert, idp_issuer: idp.issuer },
      ]),
    },
  });
});
afterAll(() => t.close());

async function postCallback(form: Record<string, string>) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/auth/saml/callback',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(form).toString(),
  });
  expect(res.statusCode).toBe(303);
  return new URL(String(res.headers.location));
}

/** Runs /token_exchange with the hanko_token of a callback redirect. */
async function exchange(token: string): Promise<FlowState> {
  const first = await t.post('/token_exchange');
  expect(first.name).toBe('thirdparty');
  return t.act(first, 'exchange_token', { token });
}

describe('SAML', () => {
  it('GET /saml/provider knows configured domains only', async () => {
    const known = await t.app.inject({ url: `/auth/saml/provider?domain=${DOMAIN}` });
    expect(known.statusCode).toBe(200);
    expect(known.json()).toEqual({ domain: DOMAIN });
    expect((await t.app.inject({ url: '/auth/saml/provider?domain=example.org' })).statusCode).toBe(404);
  });

  it('GET /saml/auth redirects to the IdP with an AuthnRequest; a foreign redirect_to is refused', async () => {
    const res = await t.app.inject({
      url: `/auth/saml/auth?domain=${DOMAIN}&redirect_to=${encodeURIComponent(`${PUBLIC}/login`)}`,
    });
    expect(res.statusCode).toBe(307);
    const to = new URL(String(res.headers.location));
    expect(to.origin + to.pathname).toBe('https://idp.example.test/sso');
    expect(to.searchParams.get('SAMLRequest')).toBeTruthy();
    expect(to.searchParams.get('RelayState')).toBeTruthy();
    const evil = await t.app.inject({
      url: `/auth/saml/auth?domain=${DOMAIN}&redirect_to=${encodeURIComponent('https://evil.example/x')}`,
    });
    expect(evil.statusCode).toBe(400);
  });

  it('SP-initiated: a signed response signs the person up, and the token exchange issues a session', async () => {
    const email = `anna-${Date.now()}@${DOMAIN}`;
    const start = await t.app.inject({
      url: `/auth/saml/auth?domain=${DOMAIN}&redirect_to=${encodeURIComponent(`${PUBLIC}/konto`)}`,
    });
    const relay = new URL(String(start.headers.location)).searchParams.get('RelayState')!;
    const back = await postCallback({
      SAMLResponse: idp.response({ nameId: email, email, acs: ACS, audience: AUDIENCE }),
      RelayState: relay,
    });
    expect(back.origin + back.pathname).toBe(`${PUBLIC}/konto`);
    const token = back.searchParams.get('hanko_token')!;
    expect(token).toBeTruthy();

    const done = await exchange(token);
    expect(done.name).toBe('success');
    expect(done.headers['x-auth-token']).toBeTruthy();
    expect(done.payload!.user.emails[0]).toMatchObject({ address: email, is_verified: true });
    expect(done.payload!.claims.amr).toEqual([`ext:saml:${DOMAIN}`]);
    // The product accepts the session.
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { authorization: `Bearer ${String(done.headers['x-auth-token'])}` },
    });
    expect(login.statusCode).toBe(200);

    // IdP-initiated, the same person again: the same account.
    const again = await postCallback({ SAMLResponse: idp.response({ nameId: email, email, acs: ACS, audience: AUDIENCE }) });
    expect(again.searchParams.get('saml_hint')).toBe('idp_initiated');
    const second = await exchange(again.searchParams.get('hanko_token')!);
    expect(second.name).toBe('success');
    expect(second.payload!.user.id).toBe(done.payload!.user.id);
  });

  it('a forged, tampered, expired or foreign-audience response gets no token', async () => {
    const email = `mallory-${Date.now()}@${DOMAIN}`;
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const cases = [
      idp.response({ nameId: email, email, acs: ACS, audience: AUDIENCE, signingKey: other }),
      idp.response({ nameId: email, email, acs: ACS, audience: AUDIENCE, tamper: (xml) => xml.replaceAll(email, `boss@${DOMAIN}`) }),
      idp.response({ nameId: email, email, acs: ACS, audience: AUDIENCE, offsetMs: -3_600_000 }),
      idp.response({ nameId: email, email, acs: ACS, audience: 'https://another-sp.example/metadata' }),
    ];
    for (const SAMLResponse of cases) {
      const back = await postCallback({ SAMLResponse });
      expect(back.searchParams.get('hanko_token')).toBeNull();
      expect(back.searchParams.get('error')).toBe('access_denied');
    }
  });

  it('a made-up token is refused by the exchange', async () => {
    const first = await t.post('/token_exchange');
    const res = await t.act(first, 'exchange_token', { token: 'kaputt' });
    expect(res.status).toBe(500);
  });

  it('/token_exchange is forbidden (403) without SAML', async () => {
    const plain = await createAuthTestApp();
    try {
      const res = await plain.app.inject({ method: 'POST', url: '/auth/token_exchange', headers: { 'content-type': 'application/json' }, payload: '' });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ status: 403, error: { code: 'forbidden' } });
      expect((await plain.app.inject({ url: `/auth/saml/provider?domain=${uniqueEmail().split('@')[1]}` })).statusCode).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
