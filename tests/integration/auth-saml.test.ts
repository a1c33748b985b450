import { generateKeyPairSync } from 'node:crypto';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authSessions } from '../../server/db/schema/index';
import {
  createAuthTestApp,
  uniqueEmail,
  type AuthTestApp,
  type FlowState,
} from '../support/auth-client';
import { createSamlIdp } from '../support/saml-idp';

// SAML 2.0 (protocol §1.1, §3.5) with a locally generated IdP key.

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
        {
          domains: [DOMAIN],
          name: 'Klinik',
          entry_point: 'https://idp.example.test/sso',
          idp_cert: idp.cert,
          idp_issuer: idp.issuer,
        },
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
    expect((await t.app.inject({ url: '/auth/saml/provider?domain=example.org' })).statusCode).toBe(
      404,
    );
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
    const again = await postCallback({
      SAMLResponse: idp.response({ nameId: email, email, acs: ACS, audience: AUDIENCE }),
    });
    expect(again.searchParams.get('saml_hint')).toBe('idp_initiated');
    const second = await exchange(again.searchParams.get('hanko_token')!);
    expect(second.name).toBe('success');
    expect(second.payload!.user.id).toBe(done.payload!.user.id);
  });

  it('a forged, tampered, expired or foreign-audience response gets no token', async () => {
    const email = `mallory-${Date.now()}@${DOMAIN}`;
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const cases = [
      idp.response({ nameId: email, email, acs: ACS, audience: AUDIENCE, signingKey: other }),
      idp.response({
        nameId: email,
        email,
        acs: ACS,
        audience: AUDIENCE,
        tamper: (xml) => xml.replaceAll(email, `boss@${DOMAIN}`),
      }),
      idp.response({ nameId: email, email, acs: ACS, audience: AUDIENCE, offsetMs: -3_600_000 }),
      idp.response({
        nameId: email,
        email,
        acs: ACS,
        audience: 'https://another-sp.example/metadata',
      }),
    ];
    for (const SAMLResponse of cases) {
      const back = await postCallback({ SAMLResponse });
      expect(back.searchParams.get('hanko_token')).toBeNull();
      expect(back.searchParams.get('error')).toBe('access_denied');
    }
  });

  it('a hanko_token is exchanged once: a second exchange is refused and creates no session', async () => {
    const email = `einmal-${Date.now()}@${DOMAIN}`;
    const back = await postCallback({
      SAMLResponse: idp.response({ nameId: email, email, acs: ACS, audience: AUDIENCE }),
    });
    const token = back.searchParams.get('hanko_token')!;
    expect((await exchange(token)).name).toBe('success');
    const sessions = async () =>
      (await t.database.db.select({ n: count() }).from(authSessions))[0]!.n;
    const before = await sessions();

    const again = await exchange(token);
    expect(again.status).toBe(500);
    expect(again.name).toBe('error');
    expect(again.error).toMatchObject({ code: 'technical_error' });
    expect(again.headers['x-auth-token']).toBeUndefined();
    expect(again.payload?.claims).toBeUndefined();
    expect(await sessions()).toBe(before);
  });

  it('the same token exchanged twice at once: one session, one refusal', async () => {
    const email = `zugleich-${Date.now()}@${DOMAIN}`;
    const back = await postCallback({
      SAMLResponse: idp.response({ nameId: email, email, acs: ACS, audience: AUDIENCE }),
    });
    const token = back.searchParams.get('hanko_token')!;
    const [a, b] = await Promise.all([t.post('/token_exchange'), t.post('/token_exchange')]);
    const results = await Promise.all([
      t.act(a!, 'exchange_token', { token }),
      t.act(b!, 'exchange_token', { token }),
    ]);
    expect(results.map((r) => r.name).sort()).toEqual(['error', 'success']);
    expect(results.filter((r) => r.headers['x-auth-token'])).toHaveLength(1);
  });

  it('login: an address of a SAML domain goes to its IdP, and the token brought back signs in once', async () => {
    const email = `berta-${Date.now()}@${DOMAIN}`;
    const init = await t.begin('login');
    const diverted = await t.act(init, 'continue_with_login_identifier', { email });
    expect(diverted.name).toBe('thirdparty');
    const to = new URL(diverted.payload!.redirect_url);
    expect(to.origin + to.pathname).toBe('https://idp.example.test/sso');
    expect(to.searchParams.get('SAMLRequest')).toBeTruthy();
    // No code was sent: the IdP signs the person in.
    expect(await t.mails(email)).toHaveLength(0);

    const back = await postCallback({
      SAMLResponse: idp.response({ nameId: email, email, acs: ACS, audience: AUDIENCE }),
      RelayState: to.searchParams.get('RelayState')!,
    });
    // Back to the sign-in page, where the widget resumes its saved `thirdparty` state.
    expect(back.origin + back.pathname).toBe(`${PUBLIC}/login`);
    const token = back.searchParams.get('hanko_token')!;
    const done = await t.act(diverted, 'exchange_token', { token });
    expect(done.name).toBe('success');
    expect(done.headers['x-auth-token']).toBeTruthy();
    expect(done.payload!.user.emails[0]).toMatchObject({ address: email, is_verified: true });
    expect(done.payload!.claims.amr).toEqual([`ext:saml:${DOMAIN}`]);
    expect(done.payload!.last_login).toMatchObject({
      login_method: 'third_party',
      third_party_provider: `saml:${DOMAIN}`,
    });

    // The token is spent, in the token exchange flow too.
    const reused = await exchange(token);
    expect(reused.status).toBe(500);
    expect(reused.headers['x-auth-token']).toBeUndefined();

    // Other domains still sign in by code; `back` leaves the IdP detour.
    const other = uniqueEmail();
    const init2 = await t.begin('login');
    const toIdp = await t.act(init2, 'continue_with_login_identifier', {
      email: `carl-${Date.now()}@${DOMAIN}`,
    });
    const returned = await t.act(toIdp, 'back');
    expect(returned.name).toBe('login_init');
    const byCode = await t.act(returned, 'continue_with_login_identifier', { email: other });
    expect(byCode.name).not.toBe('thirdparty');
  });

  it('registration: an address of a SAML domain signs up at its IdP instead of by code', async () => {
    const email = `dora-${Date.now()}@${DOMAIN}`;
    const init = await t.begin('registration');
    const diverted = await t.act(init, 'register_login_identifier', { email });
    expect(diverted.name).toBe('thirdparty');
    const to = new URL(diverted.payload!.redirect_url);
    expect(to.origin + to.pathname).toBe('https://idp.example.test/sso');
    expect(await t.mails(email)).toHaveLength(0);
    const back = await postCallback({
      SAMLResponse: idp.response({ nameId: email, email, acs: ACS, audience: AUDIENCE }),
      RelayState: to.searchParams.get('RelayState')!,
    });
    const done = await t.act(diverted, 'exchange_token', {
      token: back.searchParams.get('hanko_token')!,
    });
    expect(done.name).toBe('success');
    expect(done.payload!.user.emails[0]).toMatchObject({ address: email, is_verified: true });
    expect(done.payload!.claims.amr).toEqual([`ext:saml:${DOMAIN}`]);
  });

  it('a made-up token is refused by the exchange', async () => {
    const first = await t.post('/token_exchange');
    const res = await t.act(first, 'exchange_token', { token: 'kaputt' });
    expect(res.status).toBe(500);
  });

  it('/token_exchange is forbidden (403) without SAML', async () => {
    const plain = await createAuthTestApp();
    try {
      const res = await plain.app.inject({
        method: 'POST',
        url: '/auth/token_exchange',
        headers: { 'content-type': 'application/json' },
        payload: '',
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ status: 403, error: { code: 'forbidden' } });
      expect(
        (
          await plain.app.inject({
            url: `/auth/saml/provider?domain=${uniqueEmail().split('@')[1]}`,
          })
        ).statusCode,
      ).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
