import { createStore } from '@xstate/store';

/**
 * The global network-error banner (specification sections 2 and 8): shown after a call failed
 * because the server could not be reached; its retry button reloads the page.
 * A small shared fact, so an @xstate/store rather than a machine (style.md, convention 7).
 */
export interface NetworkBannerDeps {
  /** What "retry" does; the app passes `() => window.location.reload()`. */
  reload: () => void;
}

export function createNetworkBannerStore(deps: NetworkBannerDeps) {
  return createStore({
    context: { visible: false, failures: 0 },
    on: {
      /** A request failed without reaching the server. */
      networkFailed: (context) => ({ visible: true, failures: context.failures + 1 }),
      dismissed: (context) => ({ ...context, visible: false }),
      retry: (context, _event, enq) => {
        enq.effect(() => deps.reload());
        return context;
      },
    },
  });
}

export type NetworkBannerStore = ReturnType<typeof createNetworkBannerStore>;
