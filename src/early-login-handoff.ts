import type { FlowReply } from './machines/auth/types';

/**
 * The hand-over between src/early-login.ts (its own small script, run as soon as it arrives)
 * and the app's start script (src/main.tsx): two entries of the build, so the window carries
 * the promise, not a shared module.
 */
const KEY = Symbol.for('sprechstunde.earlyLogin');
type Slot = { [KEY]?: Promise<FlowReply> | 'taken' };
const slot = () => globalThis as Slot;

/** Whether the start script has looked already: then an early flow would be one too many. */
export const earlyLoginTooLate = () => slot()[KEY] === 'taken';

export function handOverEarlyLogin(reply: Promise<FlowReply>): void {
  slot()[KEY] = reply;
}

/** The early flow's first answer, once; null when none was started (the widget starts one). */
export function takeEarlyLogin(): Promise<FlowReply> | null {
  const reply = slot()[KEY];
  slot()[KEY] = 'taken';
  return reply === 'taken' || reply === undefined ? null : reply;
}
