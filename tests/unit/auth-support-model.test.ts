// @vitest-environment node
import { expect } from 'vitest';
import type { AuthEvent } from '../../src/ports/auth-events';
import {
  codeInputMachine,
  confirmMachine,
  copyMachine,
  eventThrottleMachine,
  SUPPORT_DELAYS,
} from '../../src/machines/auth/support.machines';
import { describeModel, done, failed, startMachine } from '../support/model';

/**
 * Model-based tests of the sign-in widget's small machines (code entry, copy confirmation,
 * yes/no confirmation, event throttle): paths from the real machines, delays included, played
 * on live actors on a simulated clock; each state is checked in what the widget shows (the
 * digits and the focused box, the tags) and in what the machine tells its parent (emitted events).
 */

/** A live actor that records what it emits. */
function withEmitted<A extends { on: (type: '*', fn: (e: any) => void) => unknown }>(started: {
  actor: A;
}) {
  const emitted: any[] = [];
  started.actor.on('*', (e) => void emitted.push(e));
  return { ...started, emitted };
}

// ---------------------------------------------------------------------------------------------
// Six-digit code entry

describeModel('code input machine, model-based', {
  machine: codeInputMachine,
  plans: [
    {
      events: [
        { type: 'code.paste', index: 0, text: '123 456' },
        { type: 'code.paste', index: 0, text: '12' },
        { type: 'digit.input', index: 2, value: '3' },
        { type: 'digit.input', index: 5, value: '9' },
        { type: 'digit.delete', index: 5 },
        { type: 'digit.focus', index: 4 },
        { type: 'code.clear' },
      ],
      serialize: (s) => [s.context.digits.join(','), s.context.focus],
    },
  ],
  start: () => withEmitted(startMachine(codeInputMachine)),
  states: {
    'codeInput.editing': (s, run) => {
      // Some box is still empty, and the focus is on a box.
      expect(s.context.digits.some((d) => d === '')).toBe(true);
      expect(s.context.focus).toBeGreaterThanOrEqual(0);
      expect(s.context.focus).toBeLessThan(6);
      expect(s.context.digits.every((d) => d === '' || /^\d$/.test(d))).toBe(true);
      expect(run.emitted.every((e) => e.type === 'code.complete')).toBe(true);
    },
    'codeInput.complete': (s, run) => {
      // A full code is submitted on entering the state, with exactly the digits shown.
      expect(s.context.digits.every((d) => /^\d$/.test(d))).toBe(true);
      expect(run.emitted.at(-1)).toEqual({
        type: 'code.complete',
        code: s.context.digits.join(''),
      });
    },
  },
  finish: (run, path) => {
    // Submitted once per completion, never more: every step that (re-)enters `complete`
    // (moving the focus does not).
    const completions = path.steps.filter(
      (step) => step.state.matches('complete') && step.event.type !== 'digit.focus',
    ).length;
    expect(run.emitted).toHaveLength(completions);
  },
});

// ---------------------------------------------------------------------------------------------
// Copy with a confirmation (authenticator-app secret)

describeModel('copy machine, model-based', {
  machine: copyMachine,
  plans: [
    {
      events: [
        { type: 'copy', text: 'JBSWY3DPEHPK3PXP' },
        done('0.copy.copying'),
        failed('0.copy.copying', new Error('denied')),
        { type: 'xstate.after.copyConfirmation.copy.copied' },
        { type: 'xstate.after.copyConfirmation.copy.failed' },
      ],
      walks: [
        [
          { type: 'copy', text: 'JBSWY3DPEHPK3PXP' },
          done('0.copy.copying'),
          { type: 'copy', text: 'JBSWY3DPEHPK3PXP' },
          failed('0.copy.copying', new Error('denied')),
          { type: 'xstate.after.copyConfirmation.copy.failed' },
        ],
      ],
    },
  ],
  start: () => startMachine(copyMachine),
  states: {
    'copy.idle': (s) => {
      expect(s.hasTag('copied')).toBe(false);
      expect(s.hasTag('copyFailed')).toBe(false);
    },
    'copy.copying': (_s, run) => {
      expect(run.fakes.copyText!.latest().input).toEqual({ text: 'JBSWY3DPEHPK3PXP' });
    },
    'copy.copied': (s) => {
      expect(s.hasTag('copied')).toBe(true);
      expect(s.can({ type: 'copy', text: 'x' })).toBe(true);
    },
    'copy.failed': (s) => {
      expect(s.hasTag('copyFailed')).toBe(true);
    },
  },
  finish: (run, path) => {
    // The confirmation disappears after 1.5 s, not before.
    if (path.state.hasTag('copied') || path.state.hasTag('copyFailed')) {
      run.clock!.increment(SUPPORT_DELAYS.copyConfirmation - 1);
      expect(run.actor.getSnapshot().value).toBe(path.state.value);
      run.clock!.increment(1);
      expect(run.actor.getSnapshot().value).toBe('idle');
    }
  },
});

// ---------------------------------------------------------------------------------------------
// Yes/no confirmation on a dangerous link

describeModel('confirm machine, model-based', {
  machine: confirmMachine,
  plans: [
    {
      events: [
        { type: 'confirm.open' },
        { type: 'confirm.yes' },
        { type: 'confirm.no' },
        { type: 'pointer.leave' },
        { type: 'pointer.enter' },
        { type: 'xstate.after.confirmClose.confirm.closing' },
      ],
      // Every way out of the question, not only the shortest way into each state.
      walks: [
        [
          { type: 'confirm.open' },
          { type: 'pointer.leave' },
          { type: 'pointer.enter' },
          { type: 'confirm.yes' },
        ],
        [
          { type: 'confirm.open' },
          { type: 'pointer.leave' },
          { type: 'xstate.after.confirmClose.confirm.closing' },
        ],
        [
          { type: 'confirm.open' },
          { type: 'pointer.leave' },
          { type: 'confirm.no' },
          { type: 'confirm.open' },
          { type: 'confirm.no' },
        ],
      ],
    },
  ],
  start: () => withEmitted(startMachine(confirmMachine)),
  states: {
    'confirm.closed': (s) => expect(s.hasTag('open')).toBe(false),
    'confirm.open': (s) => {
      expect(s.hasTag('open')).toBe(true);
      expect(s.can({ type: 'confirm.yes' })).toBe(true);
    },
    // The pointer left: the question still shows and still answers.
    'confirm.closing': (s) => {
      expect(s.hasTag('open')).toBe(true);
      expect(s.can({ type: 'confirm.yes' })).toBe(true);
    },
  },
  finish: (run, path) => {
    // Only "yes" confirms.
    expect(run.emitted).toEqual(
      path.steps
        .filter((step) => step.event.type === 'confirm.yes')
        .map(() => ({ type: 'confirmed' })),
    );
  },
});

// ---------------------------------------------------------------------------------------------
// Event throttle: each kind of auth event at most once a second

const CREATED: AuthEvent = {
  type: 'session-created',
  token: 't',
  userId: 'u',
  expiresInSeconds: 60,
};
const LOGGED_OUT: AuthEvent = { type: 'user-logged-out' };

describeModel('event throttle machine, model-based', {
  machine: eventThrottleMachine,
  plans: [
    {
      events: [
        { type: 'event.forward', event: CREATED },
        { type: 'event.forward', event: LOGGED_OUT },
        { type: 'xstate.after.eventThrottle.eventThrottle.throttling' },
      ],
      serialize: (s) => s.context.recent,
    },
  ],
  start: () => withEmitted(startMachine(eventThrottleMachine)),
  states: {
    'eventThrottle.open': (s) => expect(s.context.recent).toEqual([]),
    'eventThrottle.throttling': (s, run) => {
      // What was forwarded in this second is remembered, each kind once.
      const kinds = run.emitted.slice(-s.context.recent.length).map((e) => e.event.type);
      expect(kinds).toEqual(s.context.recent);
      expect(new Set(s.context.recent).size).toBe(s.context.recent.length);
    },
  },
  finish: (run, path) => {
    // Forwarded: every event whose kind was not sent in the same throttle window.
    let recent: string[] = [];
    const forwarded: string[] = [];
    for (const step of path.steps) {
      if (step.event.type === 'event.forward') {
        const kind = (step.event.event as AuthEvent).type;
        if (!recent.includes(kind)) {
          forwarded.push(kind);
          recent.push(kind);
        }
      } else if (step.event.type.startsWith('xstate.after.')) recent = [];
    }
    expect(run.emitted.map((e) => e.event.type)).toEqual(forwarded);
  },
});
