import { createStore } from '@xstate/store';

/**
 * Toasts (specification sections 8 and 9): kinds success, info, warning, error and loading;
 * at most 3 visible, each shown for 4000 ms, 356 px wide with 14 px between them, stacked at
 * the bottom right; a swipe of 20 px dismisses one. A small shared queue, so an @xstate/store
 * (style.md, convention 7); its timers are effects of the store, not of the view.
 */
export const TOAST_SETTINGS = {
  visible: 3,
  durationMs: 4000,
  widthPx: 356,
  gapPx: 14,
  position: 'bottom-right',
  swipeThresholdPx: 20,
} as const;

export type ToastKind = 'success' | 'info' | 'warning' | 'error' | 'loading';

export interface Toast {
  id: string;
  kind: ToastKind;
  /** i18n key (namespace `common` unless prefixed `ns:`). */
  messageKey: string;
  values?: Record<string, string | number>;
}

export interface ToastInput {
  /** Reusing an id replaces that toast (e.g. loading → success) and restarts its time. */
  id?: string;
  kind: ToastKind;
  messageKey: string;
  values?: Record<string, string | number>;
  /** Milliseconds; defaults to 4000. Loading toasts stay until replaced or dismissed. */
  durationMs?: number;
}

export interface ToastTimers {
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
}

let sequence = 0;

export function createToastStore(
  timers: ToastTimers = {
    setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
    clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
  },
) {
  const pending = new Map<string, unknown>();
  const cancel = (id: string) => {
    if (pending.has(id)) timers.clearTimeout(pending.get(id));
    pending.delete(id);
  };

  const store = createStore({
    context: { toasts: [] as Toast[] },
    on: {
      show: (context, event: ToastInput, enq) => {
        const id = event.id ?? `toast-${++sequence}`;
        const toast: Toast = {
          id,
          kind: event.kind,
          messageKey: event.messageKey,
          ...(event.values ? { values: event.values } : {}),
        };
        const duration = event.durationMs ?? TOAST_SETTINGS.durationMs;
        enq.effect(() => {
          cancel(id);
          if (event.kind === 'loading') return;
          pending.set(
            id,
            timers.setTimeout(() => {
              pending.delete(id);
              store.send({ type: 'dismiss', id });
            }, duration),
          );
        });
        // Newest first; replacing keeps the toast's place.
        const index = context.toasts.findIndex((t) => t.id === id);
        if (index >= 0) {
          const toasts = [...context.toasts];
          toasts[index] = toast;
          return { toasts };
        }
        return { toasts: [toast, ...context.toasts] };
      },
      dismiss: (context, event: { id: string }, enq) => {
        enq.effect(() => cancel(event.id));
        return { toasts: context.toasts.filter((t) => t.id !== event.id) };
      },
    },
  });
  return store;
}

export type ToastStore = ReturnType<typeof createToastStore>;

/** The toasts on screen: the newest three. */
export const visibleToasts = (toasts: readonly Toast[]): Toast[] =>
  toasts.slice(0, TOAST_SETTINGS.visible);
