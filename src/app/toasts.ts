import { assign, createActor, enqueueActions, setup } from 'xstate';
import type { InspectOption } from './inspector';

/**
 * Toasts (the specification's error catalogue and constants): kinds success, info, warning, error
 * and loading; at most 3 visible, each shown for 4000 ms, 356 px wide with 14 px between them,
 * stacked at the bottom right; a swipe of 20 px dismisses one. A small shared queue: a small xstate
 * actor (xstate is loaded on every page anyway; docs/decisions/0021-first-screen-performance.md);
 * its timers are effects of the actor, not of the view.
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

export type ToastEvent = ({ type: 'show' } & ToastInput) | { type: 'dismiss'; id: string };

let sequence = 0;

const defaultTimers: ToastTimers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** The toast queue actor, started. */
export function createToastStore(timers: ToastTimers = defaultTimers, inspect?: InspectOption) {
  const pending = new Map<string, unknown>();
  const cancel = (id: string) => {
    if (pending.has(id)) timers.clearTimeout(pending.get(id));
    pending.delete(id);
  };

  const logic = setup({
    types: { context: {} as { toasts: Toast[] }, events: {} as ToastEvent },
  }).createMachine({
    id: 'toasts',
    context: { toasts: [] },
    on: {
      show: {
        actions: enqueueActions(({ context, event, enqueue, self }) => {
          const id = event.id ?? `toast-${++sequence}`;
          const toast: Toast = {
            id,
            kind: event.kind,
            messageKey: event.messageKey,
            ...(event.values ? { values: event.values } : {}),
          };
          // Newest first; replacing keeps the toast's place.
          const toasts = context.toasts.some((t) => t.id === id)
            ? context.toasts.map((t) => (t.id === id ? toast : t))
            : [toast, ...context.toasts];
          enqueue.assign({ toasts });
          const duration = event.durationMs ?? TOAST_SETTINGS.durationMs;
          enqueue(() => {
            cancel(id);
            if (event.kind === 'loading') return;
            pending.set(
              id,
              timers.setTimeout(() => {
                pending.delete(id);
                self.send({ type: 'dismiss', id });
              }, duration),
            );
          });
        }),
      },
      dismiss: {
        actions: [
          ({ event }) => cancel(event.id),
          assign(({ context, event }) => ({
            toasts: context.toasts.filter((t) => t.id !== event.id),
          })),
        ],
      },
    },
  });
  return createActor(logic, inspect ? { inspect } : {}).start();
}

export type ToastStore = ReturnType<typeof createToastStore>;

/** The toasts on screen: the newest three. */
export const visibleToasts = (toasts: readonly Toast[]): Toast[] =>
  toasts.slice(0, TOAST_SETTINGS.visible);
