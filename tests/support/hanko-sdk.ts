/**
 * The published `@teamhanko/hanko-frontend-sdk` 3.0.0, headless in Node, as a conformance
 * client for our provider (flow protocol §5.4, docs/auth-flow-protocol.md).
 *
 * What the SDK needs in Node (it is written for browsers only):
 * - a jsdom window. With the **same origin** as the server, jsdom's XMLHttpRequest neither
 *   enforces CORS nor hides response headers (`X-Auth-Token`); with another origin it does
 *   both, like a browser (preflight, `Access-Control-Allow-*`, only exposed headers
 *   readable), which is how the CORS test uses it. Its cookie jar keeps the SDK's own
 *   `hanko` cookie on plain http, and `HttpOnly; Secure` cookies of the server too;
 * - these jsdom objects on `globalThis` **before** the SDK is imported: `window`, `document`,
 *   `localStorage`, `sessionStorage`, `XMLHttpRequest`, `navigator`, `history`, `location`,
 *   `DOMException`, `CustomEvent`, `Event`. Node 24 has its own `navigator`, `Event`,
 *   `CustomEvent` and `DOMException`; they are replaced by jsdom's so that the SDK's events
 *   reach jsdom's `document`, and restored afterwards;
 * - the ESM build (`await import(...)` resolves to `dist/sdk.modern.js`); the CommonJS build
 *   calls jsdom's `CustomEvent` without `new` and fails;
 * - Node's own `BroadcastChannel`, which the SDK's session relay opens: `close()` closes it
 *   and stops the relay's timers so the worker can exit (the recipe's `process.exit()` is not
 *   possible inside vitest);
 * - `loadFromCache: false` for isolation, and `excludeAutoSteps: ['thirdparty']`, because
 *   jsdom cannot navigate (`SDK_STATE_OPTIONS`).
 * jsdom has no `navigator.credentials`, so the SDK reports `webauthn_available: false` and
 * the flows take their passcode and password branches.
 */
import { JSDOM } from 'jsdom';
import type { Hanko, State } from '@teamhanko/hanko-frontend-sdk';

const GLOBALS = [
  'window',
  'document',
  'localStorage',
  'sessionStorage',
  'XMLHttpRequest',
  'navigator',
  'history',
  'location',
  'DOMException',
  'CustomEvent',
  'Event',
] as const;

export const SDK_STATE_OPTIONS: NonNullable<Parameters<Hanko['createState']>[1]> = {
  loadFromCache: false,
  excludeAutoSteps: ['thirdparty'],
};

/**
 * Puts a jsdom window at `pageUrl` in place of the browser globals and loads the SDK.
 * `client(apiUrl)` makes SDK instances (each with its own cookie name); `close()` ends them
 * and restores the globals.
 */
export async function loadHankoSdk(pageUrl: string) {
  const dom = new JSDOM('<!doctype html><html><body></body></html>', {
    url: pageUrl,
    pretendToBeVisual: true,
  });
  const saved = new Map<string, PropertyDescriptor | undefined>();
  for (const name of GLOBALS) {
    saved.set(name, Object.getOwnPropertyDescriptor(globalThis, name));
    Object.defineProperty(globalThis, name, {
      value: (dom.window as unknown as Record<string, unknown>)[name],
      configurable: true,
      writable: true,
    });
  }
  const sdk = await import('@teamhanko/hanko-frontend-sdk');
  const clients: Hanko[] = [];

  return {
    sdk,
    dom,
    /** A new SDK instance against `apiUrl` (its own cookie, so sessions do not mix). */
    client(apiUrl: string, cookieName = `hanko_${clients.length}`) {
      const hanko = new sdk.Hanko(apiUrl, { cookieName, sessionCheckInterval: 600_000 });
      clients.push(hanko);
      return hanko;
    },
    close() {
      for (const hanko of clients) {
        const relay = hanko.relay as unknown as {
          scheduler: { stop(): void };
          sessionChannel: { channel: BroadcastChannel };
        };
        relay.scheduler.stop();
        relay.sessionChannel.channel.close();
      }
      dom.window.close();
      for (const [name, descriptor] of saved) {
        if (descriptor) Object.defineProperty(globalThis, name, descriptor);
        else delete (globalThis as Record<string, unknown>)[name];
      }
    },
  };
}

interface SdkAction {
  enabled: boolean;
  inputs: Record<string, { value?: unknown; error?: { code: string; message: string } }>;
  run(input?: Record<string, unknown> | null): Promise<State>;
}

/** A state's actions, untyped (the SDK types them per state name). */
export const actionsOf = (state: State) => state.actions as unknown as Record<string, SdkAction>;

/** Runs a state's action through the SDK; fails with the offered names when it is absent. */
export function run(state: State, name: string, input?: Record<string, unknown>): Promise<State> {
  const action = actionsOf(state)[name]!;
  if (!action.enabled) {
    throw new Error(
      `${state.name} offers no ${name} (has ${Object.keys(state.actions).join(', ')})`,
    );
  }
  return action.run(input ?? null);
}
