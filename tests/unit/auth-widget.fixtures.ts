import { fromCallback, fromPromise } from 'xstate';
import type {
  ClientCapabilities,
  FlowAction,
  FlowInput,
  FlowName,
  FlowReply,
  FlowResponse,
  ThirdPartyReturn,
  WebAuthnOptions,
  LastLogin,
} from '../../src/machines/auth/types';

/**
 * A fake provider for the widget's machine and view tests: answers are built with `state()`
 * and queued per action; every request is recorded.
 */

const FLOW_ID = '0b0e5a8e-7c1f-4d7e-9a55-2f4e3a6c9d10';
let csrf = 0;

type InputSpec = Partial<FlowInput> | true;

/** A flow answer: `actions` maps action names to their inputs (`true`: a required string). */
export function state(
  name: string,
  actions: Record<string, Record<string, InputSpec>> = {},
  extra: Partial<FlowResponse> = {},
): FlowResponse {
  const built: Record<string, FlowAction> = {};
  for (const [action, inputs] of Object.entries(actions)) {
    built[action] = {
      action,
      href: `/login?action=${action}%40${FLOW_ID}`,
      inputs: Object.fromEntries(
        Object.entries(inputs).map(([input, spec]) => [
          input,
          { name: input, type: 'string', ...(spec === true ? { required: true } : spec) },
        ]),
      ),
    };
  }
  return {
    name: name as FlowResponse['name'],
    status: 200,
    payload: {},
    csrf_token: `csrf${(csrf++).toString().padStart(28, '0')}`,
    actions: built,
    links: null,
    ...extra,
  };
}

export const reply = (body: FlowResponse, headers: Partial<FlowReply> = {}): FlowReply => ({
  body,
  status: body.status,
  token: null,
  sessionLifetime: null,
  retryAfter: null,
  ...headers,
});

export const CAPABILITIES_OFF: ClientCapabilities = {
  webauthn_available: false,
  webauthn_conditional_mediation_available: false,
  webauthn_platform_authenticator_available: false,
};

export const preflightState = () =>
  state('preflight', {
    register_client_capabilities: {
      webauthn_available: { type: 'boolean', required: true, hidden: true },
      webauthn_conditional_mediation_available: { type: 'boolean', hidden: true },
      webauthn_platform_authenticator_available: { type: 'boolean', hidden: true },
    },
  });

export const loginInitState = (extra: Partial<FlowResponse> = {}) =>
  state(
    'login_init',
    {
      continue_with_login_identifier: { email: { type: 'email', required: true, max_length: 120 } },
    },
    extra,
  );

export interface Call {
  action: string;
  inputs: Record<string, unknown>;
  csrfToken: string;
}

type Answer = FlowReply | Error | 'never' | ((call: Call) => FlowReply);

/** Fake actors; answers are queued by action name (`start` for the flow start). */
export function fakeProvider(
  options: {
    start?: FlowResponse;
    capabilities?: ClientCapabilities;
    session?: boolean;
    thirdPartyReturn?: Partial<ThirdPartyReturn>;
  } = {},
) {
  const answers = new Map<string, Answer[]>();
  const calls: Call[] = [];
  const passkeyPrompts: { kind: 'get' | 'create' | 'conditional'; options: unknown }[] = [];
  const redirects: string[] = [];
  const lastLogins: unknown[] = [];
  let starts = 0;
  let passkeyResult: () => Promise<unknown> = () => Promise.resolve({ id: 'credential-1' });
  let conditionalResult: () => Promise<unknown> = () => new Promise(() => {});
  const listeners = new Set<(type: 'auth.sessionCreated' | 'auth.sessionEnded') => void>();

  const answer = (action: string, call: Call): Promise<FlowReply> => {
    const queue = answers.get(action) ?? [];
    const next = queue.shift();
    if (next === undefined) return Promise.reject(new Error(`no answer queued for ${action}`));
    if (next === 'never') return new Promise(() => {});
    if (next instanceof Error) return Promise.reject(next);
    return Promise.resolve(typeof next === 'function' ? next(call) : next);
  };

  const actors = {
    checkSession: fromPromise<boolean>(async () => options.session ?? true),
    readReturn: fromPromise<ThirdPartyReturn>(async () => ({
      saved: null,
      token: null,
      error: null,
      errorDescription: null,
      ...options.thirdPartyReturn,
    })),
    startFlow: fromPromise<FlowReply, { flowName: FlowName }>(async () => {
      starts++;
      return reply(options.start ?? preflightState());
    }),
    runAction: fromPromise<
      FlowReply,
      { href: string; csrfToken: string; inputs: Record<string, unknown> }
    >(({ input }) => {
      const action = decodeURIComponent(
        new URL(input.href, 'http://x').searchParams.get('action')!,
      ).split('@')[0]!;
      const call = { action, inputs: input.inputs, csrfToken: input.csrfToken };
      calls.push(call);
      return answer(action, call);
    }),
    detectCapabilities: fromPromise<ClientCapabilities>(
      async () => options.capabilities ?? CAPABILITIES_OFF,
    ),
    conditionalPasskey: fromPromise<unknown, { options: WebAuthnOptions }>(({ input }) => {
      passkeyPrompts.push({ kind: 'conditional', options: input.options });
      return conditionalResult();
    }),
    getPasskey: fromPromise<unknown, { options: WebAuthnOptions }>(({ input }) => {
      passkeyPrompts.push({ kind: 'get', options: input.options });
      return passkeyResult();
    }),
    createPasskey: fromPromise<unknown, { options: WebAuthnOptions }>(({ input }) => {
      passkeyPrompts.push({ kind: 'create', options: input.options });
      return passkeyResult();
    }),
    redirectToProvider: fromPromise<void, { response: FlowResponse; url: string }>(
      async ({ input }) => {
        redirects.push(input.url);
      },
    ),
    saveLastLogin: fromPromise<void, { lastLogin: LastLogin | null }>(async ({ input }) => {
      lastLogins.push(input.lastLogin);
    }),
    authEvents: fromCallback(({ sendBack }) => {
      const listener = (type: 'auth.sessionCreated' | 'auth.sessionEnded') => sendBack({ type });
      listeners.add(listener);
      return () => listeners.delete(listener);
    }),
  };

  return {
    actors,
    calls,
    passkeyPrompts,
    redirects,
    lastLogins,
    get starts() {
      return starts;
    },
    /** Queues the answer to the next run of `action`. */
    on(action: string, ...queued: Answer[]) {
      answers.set(action, [...(answers.get(action) ?? []), ...queued]);
    },
    passkeyResolves(value: unknown) {
      passkeyResult = () => Promise.resolve(value);
    },
    passkeyFails(name = 'NotAllowedError') {
      passkeyResult = () => Promise.reject(Object.assign(new Error(name), { name }));
    },
    passkeyRejects(error: Error) {
      passkeyResult = () => Promise.reject(error);
    },
    conditionalResolves(value: unknown) {
      conditionalResult = () => Promise.resolve(value);
    },
    /** Sends an app auth event into the machine ('auth.sessionCreated' | 'auth.sessionEnded'). */
    appEvent(type: 'auth.sessionCreated' | 'auth.sessionEnded') {
      for (const l of listeners) l(type);
    },
  };
}

/** Lets resolved fake promises deliver their results. */
export const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
