import { assign, createActor, setup } from 'xstate';
import type { InspectOption } from './inspector';

/**
 * The global network-error banner (the specification's screens and error catalogue): shown after a
 * call failed because the server could not be reached; its retry button reloads the page. A small
 * shared fact: a small xstate actor, since xstate is loaded on every page anyway
 * (docs/decisions/0021-first-screen-performance.md).
 */
export interface NetworkBannerDeps {
  /** What "retry" does; the app passes `() => window.location.reload()`. */
  reload: () => void;
}

export type NetworkBannerEvent =
  /** A request failed without reaching the server. */
  { type: 'networkFailed' } | { type: 'dismissed' } | { type: 'retry' };

export const networkBannerLogic = setup({
  types: {
    context: {} as { visible: boolean; failures: number },
    events: {} as NetworkBannerEvent,
  },
  actions: {
    /** Provided by createNetworkBannerStore. */
    reload: () => {},
  },
}).createMachine({
  id: 'networkBanner',
  context: { visible: false, failures: 0 },
  on: {
    networkFailed: {
      actions: assign(({ context }) => ({ visible: true, failures: context.failures + 1 })),
    },
    dismissed: { actions: assign({ visible: false }) },
    retry: { actions: 'reload' },
  },
});

/** The banner actor, started. */
export function createNetworkBannerStore(deps: NetworkBannerDeps, inspect?: InspectOption) {
  return createActor(networkBannerLogic.provide({ actions: { reload: () => deps.reload() } }), {
    ...(inspect ? { inspect } : {}),
  }).start();
}

export type NetworkBannerStore = ReturnType<typeof createNetworkBannerStore>;
