import { act, render, screen } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  __unsafe_getAllOwnEventDescriptors,
  fromCallback,
  fromPromise,
  SimulatedClock,
  type Actor,
  type AnyEventObject,
} from 'xstate';
import { createI18n } from '../../src/i18n';
import { authFlowMachine, type AuthFlowEvent } from '../../src/machines/auth/flow.machine';
import { SERVER_STATES, type FlowName, type FlowResponse } from '../../src/machines/auth/types';
import { AuthFlowActor } from '../../src/views/auth/flowContext';
import { FlowScreen } from '../../src/views/auth/screens';
import { readLocales } from '../support/locales';
import { describeModel, type ModelPath } from '../support/model';
import { preflightState, reply, state } from './auth-widget.fixtures';

/**
 * Model-based tests (docs/style.md): paths generated from the real flow machine with xstate/graph
 * reach every state of it; the shortest path to each state is then replayed against the
 * rendered widget, which must show, at every step, the screen of the state it is in.
 */

const options = { publicKey: { challenge: 'Y2hhbGxlbmdl' } };
const json = { type: 'json' as const };

/** What each server state offers in the model: enough actions to leave it every way. */
function richState(name: string): FlowResponse {
  const common = { back: {}, skip: {} };
  switch (name) {
    case 'preflight':
      return preflightState();
    case 'login_init':
      return state(name, {
        continue_with_login_identifier: { identifier: { required: true, max_length: 255 } },
        webauthn_generate_request_options: {},
        remember_me: { remember_me: { type: 'boolean' } },
      });
    case 'login_password':
      return state(name, {
        password_login: { password: { type: 'password', required: true } },
        continue_to_passcode_confirmation_recovery: {},
        back: {},
      });
    case 'login_password_recovery':
      return state(name, {
        password_recovery: {
          new_password: { type: 'password', required: true, min_length: 8, max_length: 72 },
        },
      });
    case 'passcode_confirmation':
      return state(name, { verify_passcode: { code: true }, resend_passcode: {}, back: {} });
    case 'login_otp':
      return state(name, {
        otp_code_validate: { otp_code: true },
        continue_to_login_security_key: {},
      });
    case 'login_passkey':
      return state(
        name,
        { webauthn_verify_assertion_response: { assertion_response: json }, back: {} },
        { payload: { request_options: options } },
      );
    case 'onboarding_verify_passkey_attestation':
    case 'webauthn_credential_verification':
      return state(
        name,
        { webauthn_verify_attestation_response: { public_key: json }, back: {} },
        { payload: { creation_options: options } },
      );
    case 'mfa_otp_secret_creation':
      return state(
        name,
        { otp_code_verify: { otp_code: true }, back: {} },
        {
          payload: { otp_secret: 'JBSWY3DPEHPK3PXP', otp_image_source: 'data:image/png;base64,AA' },
        },
      );
    case 'mfa_method_chooser':
      return state(name, {
        continue_to_otp_secret_creation: {},
        continue_to_security_key_creation: {},
        ...common,
      });
    case 'registration_init':
      return state(name, {
        register_login_identifier: { email: { type: 'email', required: true } },
      });
    case 'password_creation':
      return state(name, {
        register_password: { new_password: { type: 'password', min_length: 8, max_length: 72 } },
        ...common,
      });
    case 'onboarding_email':
      return state(name, { email_address_set: { email: true }, skip: {} });
    case 'onboarding_username':
      return state(name, { username_create: { username: true }, skip: {} });
    case 'thirdparty':
      return state(
        name,
        { exchange_token: { token: { required: true, hidden: true } }, back: {} },
        { payload: { redirect_url: 'https://idp.example/auth' } },
      );
    case 'profile_init':
      return state(
        name,
        {
          email_create: { email: { type: 'email', required: true } },
          webauthn_credential_rename: {
            passkey_id: { required: true, hidden: true },
            passkey_name: true,
          },
          account_delete: {},
        },
        { payload: { sessions: [] } },
      );
    case 'error':
      return state(name, {}, { status: 500, error: { code: 'technical_error', message: 'x' } });
    default:
      return state(name, { continue: {}, ...common });
  }
}

/** Extra answers that lead into the sub-states: autofill, countdowns. */
const SPECIAL_REPLIES = [
  state(
    'login_init',
    {
      continue_with_login_identifier: { email: true },
      webauthn_verify_assertion_response: { assertion_response: json },
    },
    { payload: { request_options: options } },
  ),
  state(
    'passcode_confirmation',
    { verify_passcode: { code: true }, resend_passcode: {} },
    { payload: { resend_after: 2 } },
  ),
  state('mfa_method_chooser', { continue_to_otp_secret_creation: {}, skip: {} }),
  state('carrier_pigeon' as never),
];

/** A 429 with `retry_after` in each state whose actions the server rate-limits. */
const rateLimited = ['login_password', 'passcode_confirmation', 'login_otp', 'thirdparty'].map(
  (name) => ({
    ...richState(name),
    status: 429,
    payload: { retry_after: 2 },
    error: { code: 'rate_limit_exceeded' as const, message: 'x' },
  }),
);

const REPLIES = [...SERVER_STATES.map(richState), ...SPECIAL_REPLIES, ...rateLimited];

const SAMPLE_INPUTS: Record<string, unknown> = {
  email: 'anna@example.org',
  identifier: 'anna@example.org',
  username: 'anna_1',
  password: 'geheimes-passwort',
  new_password: 'geheimes-passwort',
  code: '123456',
  otp_code: '123456',
  passkey_name: 'Laptop',
  passkey_id: 'pk1',
  remember_me: true,
};

type Snap = ReturnType<typeof authFlowMachine.transition>;

/** The events that can happen in a snapshot, including actor results and delays. */
function eventsFor(snapshot: Snap): AuthFlowEvent[] {
  const events: AnyEventObject[] = [];
  for (const type of __unsafe_getAllOwnEventDescriptors(snapshot)) {
    if (type.startsWith('xstate.after.')) events.push({ type });
    else if (type === 'xstate.done.actor.runAction' || type === 'xstate.done.actor.startFlow') {
      for (const body of REPLIES) events.push({ type, output: reply(body) });
    } else if (type === 'xstate.done.actor.readReturn') {
      const saved = richState('thirdparty');
      events.push({
        type,
        output: { saved: null, token: null, error: null, errorDescription: null },
      });
      events.push({
        type,
        output: { saved, token: 'one-time', error: null, errorDescription: null },
      });
      events.push({
        type,
        output: { saved, token: null, error: 'access_denied', errorDescription: null },
      });
    } else if (type === 'xstate.done.actor.checkSession') {
      events.push({ type, output: true }, { type, output: false });
    } else if (type === 'xstate.done.actor.detectCapabilities') {
      events.push({
        type,
        output: {
          webauthn_available: true,
          webauthn_conditional_mediation_available: true,
          webauthn_platform_authenticator_available: true,
        },
      });
    } else if (type.startsWith('xstate.done.actor.')) {
      events.push({ type, output: { id: 'credential' } });
    } else if (type.startsWith('xstate.error.actor.')) {
      events.push({ type, error: Object.assign(new Error('failed'), { name: 'NotAllowedError' }) });
    } else if (type === 'action.run') {
      for (const [name, action] of Object.entries(snapshot.context.response?.actions ?? {})) {
        const inputs = Object.fromEntries(
          Object.keys(action.inputs).map((i) => [i, SAMPLE_INPUTS[i] ?? 'x']),
        );
        events.push({ type, name, inputs, confirmed: true });
      }
    } else if (type === 'flow.switch') {
      events.push({ type, flowName: 'registration' });
    } else if (type === 'profile.rename') {
      events.push({ type, kind: 'passkey', id: 'pk1' });
    } else if (type !== 'auth.sessionCreated' && type !== 'auth.sessionEnded') {
      events.push({ type });
    }
  }
  return events as AuthFlowEvent[];
}

/** Bounded serialisation: the state, and what decides the next events. */
const serializeState = (snapshot: Snap) => {
  const c = snapshot.context;
  return JSON.stringify([
    snapshot.value,
    c.flowName,
    c.response?.name,
    Object.keys(c.response?.actions ?? {}).sort(),
    Object.keys(c.response?.payload ?? {}).sort(),
    c.retrySeconds,
    c.resendSeconds,
    c.thirdPartyReturn ? [c.thirdPartyReturn.token, c.thirdPartyReturn.error] : null,
    c.pending?.name ?? null,
    c.lastAction === 'back',
    c.rename !== null,
  ]);
};

/** The German heading (or text) each screen must show. */
const EXPECTED: Record<string, string | RegExp> = {
  initializing: 'Einen Moment bitte …',
  restarting: 'Einen Moment bitte …',
  checkingSession: 'Einen Moment bitte …',
  starting: 'Einen Moment bitte …',
  preflight: 'Einen Moment bitte …',
  failed: 'Es ist ein Fehler aufgetreten',
  handlerNotFound: 'Es ist ein Fehler aufgetreten',
  error: 'Es ist ein Fehler aufgetreten',
  login_init: 'Anmelden',
  passcode_confirmation: 'Code eingeben',
  login_otp: 'Code aus der Authenticator-App',
  login_passkey: 'Mit Passkey anmelden',
  login_password: 'Passwort eingeben',
  login_password_recovery: 'Neues Passwort festlegen',
  login_security_key: 'Sicherheitsschlüssel',
  login_method_chooser: 'Wie möchten Sie sich anmelden?',
  mfa_method_chooser: 'Zweiten Faktor einrichten',
  mfa_otp_secret_creation: 'Authenticator-App einrichten',
  mfa_security_key_creation: 'Sicherheitsschlüssel einrichten',
  registration_init: 'Konto erstellen',
  password_creation: 'Passwort festlegen',
  onboarding_create_passkey: 'Passkey einrichten',
  onboarding_verify_passkey_attestation: 'Passkey bestätigen',
  onboarding_email: 'E-Mail-Adresse hinzufügen',
  onboarding_username: 'Benutzernamen festlegen',
  credential_onboarding_chooser: 'Wie möchten Sie sich künftig anmelden?',
  webauthn_credential_verification: 'Passkey bestätigen',
  thirdparty: 'Weiterleitung',
  device_trust: 'Diesem Gerät vertrauen?',
  profile_init: 'Profil',
  success: 'Angemeldet',
  account_deleted: 'Konto gelöscht',
};

const pending = () => new Promise<never>(() => {});
/** Actors that never answer: the path's events decide everything. */
const silentActors = {
  checkSession: fromPromise(pending),
  readReturn: fromPromise(pending),
  startFlow: fromPromise(pending),
  runAction: fromPromise(pending),
  detectCapabilities: fromPromise(pending),
  conditionalPasskey: fromPromise(pending),
  getPasskey: fromPromise(pending),
  createPasskey: fromPromise(pending),
  redirectToProvider: fromPromise(pending),
  saveLastLogin: fromPromise(pending),
  authEvents: fromCallback(() => () => {}),
} as unknown as NonNullable<Parameters<typeof authFlowMachine.provide>[0]['actors']>;

let i18n: I18n;
beforeAll(async () => {
  const setup = createI18n({ lng: 'de', resources: readLocales('de', 'en'), debug: false });
  await setup.ready;
  i18n = setup.i18n;
});

/** The rendered widget: shows the screen of the state it is in. */
const showsItsScreen = async (snapshot: Snap) => {
  const top = typeof snapshot.value === 'string' ? snapshot.value : Object.keys(snapshot.value)[0]!;
  const expected = snapshot.hasTag('renaming')
    ? /umbenennen/
    : snapshot.hasTag('deletingAccount')
      ? 'Konto endgültig löschen'
      : EXPECTED[top]!;
  const found = await screen.findAllByText(expected, {}, { timeout: 1000 }).catch(() => []);
  expect(
    found.length,
    `${top}: expected "${expected}": ${document.body.textContent?.slice(0, 200)}`,
  ).toBeGreaterThan(0);
};

/** One path per state the widget can show (the shortest), so every screen is rendered. */
const onePerState = (paths: ModelPath[]) => {
  const byState = new Map<string, ModelPath>();
  for (const path of paths) {
    const key = JSON.stringify(path.state.value);
    const known = byState.get(key);
    if (!known || known.steps.length > path.steps.length) byState.set(key, path);
  }
  return [...byState.values()];
};

describeModel('the flow machine, model-based against the rendered widget', {
  machine: authFlowMachine,
  plans: (['login', 'profile'] as FlowName[]).map((flowName) => ({
    name: flowName,
    input: { flowName },
    events: eventsFor,
    serialize: serializeState,
    limit: 200_000,
  })),
  play: onePerState,
  start: (plan) => {
    let actorRef: ReturnType<typeof AuthFlowActor.useActorRef> | undefined;
    const Capture = () => {
      actorRef = AuthFlowActor.useActorRef();
      return null;
    };
    const view = render(
      <I18nextProvider i18n={i18n}>
        <AuthFlowActor.Provider
          logic={authFlowMachine.provide({ actors: silentActors })}
          options={{ input: plan.input!, clock: new SimulatedClock() }}
        >
          <Capture />
          <FlowScreen />
        </AuthFlowActor.Provider>
      </I18nextProvider>,
    );
    return { actor: actorRef as unknown as Actor<typeof authFlowMachine>, view };
  },
  wrap: (step) => act(step),
  // The actors never answer: their results and the delays are sent as the model's events.
  drive: (event, r) => r.actor.send(event),
  // Every top-level state's screen (the check runs in each of its sub-states too).
  states: Object.fromEntries(
    Object.keys(authFlowMachine.root.states).map((name) => [`authFlow.${name}`, showsItsScreen]),
  ),
  finish: (r) => r.view.unmount(),
});

describe('the flow machine and the protocol', () => {
  it('has a state for every server state of the protocol', () => {
    for (const name of SERVER_STATES)
      expect(Object.keys(authFlowMachine.root.states)).toContain(name);
  });
});
