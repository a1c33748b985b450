import { assign, emit, fromPromise, setup } from 'xstate';
import type { AuthEvent } from '../../ports/auth-events';
import { CODE_LENGTH } from './validation';

/**
 * The small machines of the sign-in widget: the six-digit code entry, the copy confirmation,
 * the yes/no confirmation of dangerous links and the event throttle. Time is always a named
 * delay (the specification's constants and limits).
 */

export const SUPPORT_DELAYS = {
  copyConfirmation: 1_500,
  confirmClose: 1_000,
  eventThrottle: 1_000,
} as const;

/* ---------------------------------------------------------------------------------------- */
/* Six-digit code entry (passcode and authenticator app; the specification's validation)    */
/* ---------------------------------------------------------------------------------------- */

export interface CodeInputContext {
  digits: string[];
  /** The box that has (or should get) the focus. */
  focus: number;
}

export type CodeInputEvent =
  | { type: 'digit.input'; index: number; value: string }
  | { type: 'digit.delete'; index: number }
  | { type: 'digit.focus'; index: number }
  | { type: 'code.paste'; index: number; text: string }
  | { type: 'code.clear' };

const onlyDigits = (text: string) => text.replace(/\D/g, '');

/** Writes `text`'s digits into the boxes from `index` on; the focus goes after the last one. */
function fill(context: CodeInputContext, index: number, text: string): CodeInputContext {
  const digits = [...context.digits];
  const incoming = onlyDigits(text).slice(0, CODE_LENGTH - index);
  [...incoming].forEach((digit, i) => (digits[index + i] = digit));
  const focus = Math.min(index + Math.max(incoming.length, 0), CODE_LENGTH - 1);
  return { digits, focus: incoming.length === 0 ? index : focus };
}

const isFull = (context: CodeInputContext) => context.digits.every((d) => /^\d$/.test(d));

export const codeInputMachine = setup({
  types: {
    context: {} as CodeInputContext,
    events: {} as CodeInputEvent,
    emitted: {} as { type: 'code.complete'; code: string },
  },
  guards: { full: ({ context }) => isFull(context) },
  actions: {
    input: assign(({ context, event }) =>
      event.type === 'digit.input' || event.type === 'code.paste'
        ? fill(context, event.index, event.type === 'digit.input' ? event.value : event.text)
        : {},
    ),
    remove: assign(({ context, event }) => {
      if (event.type !== 'digit.delete') return {};
      const digits = [...context.digits];
      // Backspace on an empty box clears the one before it.
      const at = digits[event.index] === '' && event.index > 0 ? event.index - 1 : event.index;
      digits[at] = '';
      return { digits, focus: at };
    }),
    focus: assign(({ event }) => (event.type === 'digit.focus' ? { focus: event.index } : {})),
    clear: assign({ digits: () => Array<string>(CODE_LENGTH).fill(''), focus: 0 }),
    emitComplete: emit(({ context }) => ({
      type: 'code.complete' as const,
      code: context.digits.join(''),
    })),
  },
}).createMachine({
  id: 'codeInput',
  context: { digits: Array<string>(CODE_LENGTH).fill(''), focus: 0 },
  initial: 'editing',
  on: {
    'digit.focus': { actions: 'focus' },
    'code.clear': { target: '.editing', actions: 'clear' },
  },
  states: {
    editing: {
      always: { guard: 'full', target: 'complete' },
      on: {
        'digit.input': { actions: 'input' },
        'code.paste': { actions: 'input' },
        'digit.delete': { actions: 'remove' },
      },
    },
    /** All six digits are there: the code is submitted once, on entry (auto-submit). */
    complete: {
      entry: 'emitComplete',
      on: {
        'digit.input': { target: 'editing', actions: 'input' },
        'code.paste': { target: 'editing', actions: 'input' },
        'digit.delete': { target: 'editing', actions: 'remove' },
      },
    },
  },
});

/* ---------------------------------------------------------------------------------------- */
/* Copy with a confirmation shown for 1.5 s (authenticator-app secret)                       */
/* ---------------------------------------------------------------------------------------- */

export const copyMachine = setup({
  types: { events: {} as { type: 'copy'; text: string } },
  actors: {
    copyText: fromPromise<void, { text: string }>(() => {
      throw new Error('copyMachine: actor "copyText" is not implemented, provide it');
    }),
  },
  delays: SUPPORT_DELAYS,
}).createMachine({
  id: 'copy',
  initial: 'idle',
  states: {
    idle: { on: { copy: 'copying' } },
    copying: {
      invoke: {
        src: 'copyText',
        input: ({ event }) => ({ text: event.type === 'copy' ? event.text : '' }),
        onDone: 'copied',
        onError: 'failed',
      },
    },
    copied: { tags: ['copied'], after: { copyConfirmation: 'idle' }, on: { copy: 'copying' } },
    failed: { tags: ['copyFailed'], after: { copyConfirmation: 'idle' }, on: { copy: 'copying' } },
  },
});

/* ---------------------------------------------------------------------------------------- */
/* Yes/no confirmation on a dangerous link; closes 1 s after the pointer leaves               */
/* ---------------------------------------------------------------------------------------- */

export type ConfirmEvent =
  | { type: 'confirm.open' }
  | { type: 'confirm.yes' }
  | { type: 'confirm.no' }
  | { type: 'pointer.leave' }
  | { type: 'pointer.enter' };

export const confirmMachine = setup({
  types: { events: {} as ConfirmEvent, emitted: {} as { type: 'confirmed' } },
  delays: SUPPORT_DELAYS,
}).createMachine({
  id: 'confirm',
  initial: 'closed',
  states: {
    closed: { on: { 'confirm.open': 'open' } },
    open: {
      tags: ['open'],
      on: {
        'confirm.yes': { target: 'closed', actions: emit({ type: 'confirmed' as const }) },
        'confirm.no': 'closed',
        'pointer.leave': 'closing',
      },
    },
    /** The pointer left: still open, closing after a second unless it comes back. */
    closing: {
      tags: ['open'],
      after: { confirmClose: 'closed' },
      on: {
        'pointer.enter': 'open',
        'confirm.yes': { target: 'closed', actions: emit({ type: 'confirmed' as const }) },
        'confirm.no': 'closed',
      },
    },
  },
});

/* ---------------------------------------------------------------------------------------- */
/* Event throttle: each kind of auth event at most once a second (constants and limits)     */
/* ---------------------------------------------------------------------------------------- */

export const eventThrottleMachine = setup({
  types: {
    context: {} as { recent: AuthEvent['type'][] },
    events: {} as { type: 'event.forward'; event: AuthEvent },
    emitted: {} as { type: 'event.forwarded'; event: AuthEvent },
  },
  delays: SUPPORT_DELAYS,
  guards: {
    recentlySent: ({ context, event }) => context.recent.includes(event.event.type),
  },
  actions: {
    forward: emit(({ event }) => ({ type: 'event.forwarded' as const, event: event.event })),
    remember: assign(({ context, event }) => ({
      recent: [...context.recent, event.event.type],
    })),
    forget: assign({ recent: [] }),
  },
}).createMachine({
  id: 'eventThrottle',
  context: { recent: [] },
  initial: 'open',
  states: {
    open: {
      on: { 'event.forward': { target: 'throttling', actions: ['forward', 'remember'] } },
    },
    throttling: {
      after: { eventThrottle: { target: 'open', actions: 'forget' } },
      on: {
        'event.forward': [{ guard: 'recentlySent' }, { actions: ['forward', 'remember'] }],
      },
    },
  },
});
