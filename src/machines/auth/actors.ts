import {
  WebAuthnAbortService,
  startAuthentication,
  startRegistration,
} from '@simplewebauthn/browser';
import { fromCallback, fromPromise } from 'xstate';
import { RETURN_PARAMS } from './return-params';
import type { TokenGetter } from '../../api/middleware';
import type { AuthEvents } from '../../ports/auth-events';
import type { AuthFlowEvent } from './flow-context';
import { detectCapabilities } from './detect-capabilities';
import { isFlowResponse, postAction, postFlow, type AuthApiClient } from './flow-request';
import type {
  ClientCapabilities,
  FlowName,
  FlowReply,
  FlowResponse,
  LastLogin,
  ThirdPartyReturn,
  WebAuthnOptions,
} from './types';

export type { AuthApiClient };

/** Local-storage keys (the specification's constants and limits). */
export const FLOW_STATE_KEY = 'flow-state';
export const DEFAULT_STORAGE_KEY = 'hanko';
export const LAST_LOGIN_SUFFIX = '_last_login';
export { RETURN_PARAMS };

export interface WebAuthnClient {
  capabilities(): Promise<ClientCapabilities>;
  /** Resolves with the assertion (webauthn-json shape); conditional = passkey autofill. */
  get(options: WebAuthnOptions, conditional: boolean): Promise<unknown>;
  create(options: WebAuthnOptions): Promise<unknown>;
  cancel(): void;
}

/** @simplewebauthn/browser behind the widget's small WebAuthn interface. */
export const browserWebAuthn: WebAuthnClient = {
  capabilities: detectCapabilities,
  get(options, conditional) {
    return startAuthentication({
      optionsJSON: options.publicKey as unknown as Parameters<
        typeof startAuthentication
      >[0]['optionsJSON'],
      useBrowserAutofill: conditional,
      // The login screen renders its `username webauthn` field after the state is entered.
      verifyBrowserAutofillInput: false,
    });
  },
  create(options) {
    return startRegistration({
      optionsJSON: options.publicKey as unknown as Parameters<
        typeof startRegistration
      >[0]['optionsJSON'],
    });
  },
  cancel() {
    WebAuthnAbortService.cancelCeremony();
  },
};

export interface BrowserLocation {
  /** The current URL. */
  href(): string;
  /** Replaces the URL without a navigation (removes the return parameters). */
  replace(url: string): void;
  /** Navigates away (to the provider). */
  assign(url: string): void;
}

export const browserLocation: BrowserLocation = {
  href: () => window.location.href,
  replace: (url) => window.history.replaceState(window.history.state, '', url),
  assign: (url) => window.location.assign(url),
};

export interface AuthFlowDeps {
  authApi: AuthApiClient;
  /** The session's token (the session machine provides it); sent as Bearer on flow calls. */
  getToken: TokenGetter;
  authEvents: AuthEvents;
  storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  location?: BrowserLocation;
  webauthn?: WebAuthnClient;
  /**
   * Storage key of the widget (named after the provider, as the specification's constants and
   * limits say).
   */
  storageKey?: string;
  /** Language of the provider's e-mails (X-Language). */
  language?: () => string;
  clipboard?: (text: string) => Promise<void>;
  /**
   * The answer of a start request sent before the machine existed (src/main.tsx, on /login),
   * taken by the first `startFlow`; null or absent: the actor sends its own.
   */
  takeStarted?: () => Promise<FlowReply> | null;
}

/** The flow saved before the redirect, if it is one (local storage is outside input). */
function parseSaved(raw: string | null): FlowResponse | null {
  if (!raw) return null;
  try {
    const saved: unknown = JSON.parse(raw);
    return isFlowResponse(saved) && saved.name === 'thirdparty' ? saved : null;
  } catch {
    return null;
  }
}

/** The real actors of the flow machine, for `authFlowMachine.provide({ actors })`. */
export function createAuthFlowActors(deps: AuthFlowDeps) {
  const storage = deps.storage ?? window.localStorage;
  const location = deps.location ?? browserLocation;
  const webauthn = deps.webauthn ?? browserWebAuthn;
  const storageKey = deps.storageKey ?? DEFAULT_STORAGE_KEY;

  const cancelOnAbort = (signal: AbortSignal) =>
    signal.addEventListener('abort', () => webauthn.cancel(), { once: true });

  return {
    checkSession: fromPromise<boolean>(async () => Boolean(await deps.getToken())),

    readReturn: fromPromise<ThirdPartyReturn>(async () => {
      const url = new URL(location.href());
      const token = url.searchParams.get('hanko_token');
      const error = url.searchParams.get('error');
      const errorDescription = url.searchParams.get('error_description');
      const raw = storage.getItem(FLOW_STATE_KEY);
      storage.removeItem(FLOW_STATE_KEY);
      if (RETURN_PARAMS.some((p) => url.searchParams.has(p))) {
        for (const p of RETURN_PARAMS) url.searchParams.delete(p);
        location.replace(`${url.pathname}${url.search}${url.hash}`);
      }
      return { saved: parseSaved(raw), token, error, errorDescription };
    }),

    startFlow: fromPromise<FlowReply, { flowName: FlowName }>(
      ({ input, signal }) =>
        deps.takeStarted?.() ?? postFlow(deps, `/${input.flowName}`, undefined, undefined, signal),
    ),

    runAction: fromPromise<
      FlowReply,
      { href: string; csrfToken: string; inputs: Record<string, unknown> }
    >(({ input, signal }) =>
      postAction(
        deps,
        input.href,
        { input_data: input.inputs, csrf_token: input.csrfToken },
        signal,
      ),
    ),

    detectCapabilities: fromPromise<ClientCapabilities>(() => webauthn.capabilities()),

    conditionalPasskey: fromPromise<unknown, { options: WebAuthnOptions }>(({ input, signal }) => {
      cancelOnAbort(signal);
      return webauthn.get(input.options, true);
    }),

    getPasskey: fromPromise<unknown, { options: WebAuthnOptions }>(({ input, signal }) => {
      cancelOnAbort(signal);
      return webauthn.get(input.options, false);
    }),

    createPasskey: fromPromise<unknown, { options: WebAuthnOptions }>(({ input, signal }) => {
      cancelOnAbort(signal);
      return webauthn.create(input.options);
    }),

    redirectToProvider: fromPromise<void, { response: FlowResponse; url: string }>(
      async ({ input }) => {
        storage.setItem(FLOW_STATE_KEY, JSON.stringify(input.response));
        location.assign(input.url);
      },
    ),

    saveLastLogin: fromPromise<void, { lastLogin: LastLogin | null }>(async ({ input }) => {
      if (input.lastLogin) {
        storage.setItem(`${storageKey}${LAST_LOGIN_SUFFIX}`, JSON.stringify(input.lastLogin));
      }
    }),

    authEvents: fromCallback(({ sendBack }) =>
      deps.authEvents.subscribe((event) =>
        sendBack({
          type: event.type === 'session-created' ? 'auth.sessionCreated' : 'auth.sessionEnded',
        } satisfies AuthFlowEvent),
      ),
    ),
  };
}

/** The copy machine's actor. */
export const createCopyActors = (deps: Pick<AuthFlowDeps, 'clipboard'>) => ({
  copyText: fromPromise<void, { text: string }>(({ input }) =>
    (deps.clipboard ?? ((text: string) => navigator.clipboard.writeText(text)))(input.text),
  ),
});
