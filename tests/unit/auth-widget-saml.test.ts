import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { authFlowMachine } from '../../src/machines/auth/flow.machine';
import { fakeProvider, flush, loginInitState, reply, state } from './auth-widget.fixtures';

// an address of a SAML domain is sent to its identity provider by the server
// (continue_with_login_identifier → `thirdparty` with `redirect_url`); the widget follows it
// like an OAuth redirect, with no SAML-specific code.

describe('authFlowMachine: SAML domain redirect', () => {
  const toIdp = state(
    'thirdparty',
    { exchange_token: { token: { required: true, hidden: true } }, back: {} },
    { payload: { redirect_url: 'https://idp.klinik.example/sso?SAMLRequest=abc&RelayState=xyz' } },
  );

  it('an address of a SAML domain leads to its IdP', async () => {
    const provider = fakeProvider();
    provider.on('register_client_capabilities', reply(loginInitState()));
    provider.on('continue_with_login_identifier', reply(toIdp));
    const actor = createActor(authFlowMachine.provide({ actors: provider.actors }), {
      input: { flowName: 'login' },
    });
    actor.start();
    await flush();
    await flush();
    actor.send({
      type: 'action.run',
      name: 'continue_with_login_identifier',
      inputs: { email: 'anna@klinik.example' },
    });
    await flush();
    await flush();
    expect(provider.calls.at(-1)).toMatchObject({
      action: 'continue_with_login_identifier',
      inputs: { email: 'anna@klinik.example' },
    });
    expect(provider.redirects).toEqual([
      'https://idp.klinik.example/sso?SAMLRequest=abc&RelayState=xyz',
    ]);
    actor.stop();
  });

  it('back on the sign-in page, the token of the IdP is exchanged in the saved flow', async () => {
    const provider = fakeProvider({ thirdPartyReturn: { saved: toIdp, token: 'saml-token' } });
    provider.on('exchange_token', reply(state('success')));
    const actor = createActor(authFlowMachine.provide({ actors: provider.actors }), {
      input: { flowName: 'login' },
    });
    actor.start();
    await flush();
    await flush();
    expect(provider.starts).toBe(0);
    expect(provider.calls).toEqual([
      { action: 'exchange_token', inputs: { token: 'saml-token' }, csrfToken: toIdp.csrf_token },
    ]);
    actor.stop();
  });
});
