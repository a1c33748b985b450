import { describe, expect, it } from 'vitest';
import { createActor, setup, type AnyEventObject } from 'xstate';
import { createLeaveGuardLogic } from '../../src/machines/actors/leave-guard';

/**
 * The editor's leave guard in a browser-like document: while armed, an in-app link is held back
 * and reported to the machine, a reload asks the browser's question and saves at once; other
 * links, new tabs and the same page pass. Disarmed, nothing is held back.
 */
function arm() {
  const received: AnyEventObject[] = [];
  const parent = setup({ actors: { guard: createLeaveGuardLogic(window) } }).createMachine({
    invoke: { src: 'guard' },
    on: { '*': { actions: ({ event }) => void received.push(event) } },
  });
  const actor = createActor(parent).start();
  return { received, stop: () => actor.stop() };
}

function link(href: string, attrs: Record<string, string> = {}) {
  const a = document.createElement('a');
  a.href = href;
  for (const [k, v] of Object.entries(attrs)) a.setAttribute(k, v);
  a.textContent = 'weiter';
  document.body.append(a);
  return a;
}

const click = (a: HTMLElement, init: MouseEventInit = {}) => {
  const event = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0, ...init });
  a.dispatchEvent(event);
  return event;
};

describe('leave guard', () => {
  it('holds back an in-app link and names where it wanted to go', () => {
    const guard = arm();
    const event = click(link('/clients/7?tab=karte'));
    expect(event.defaultPrevented).toBe(true);
    expect(guard.received).toEqual([{ type: 'leave.request', href: '/clients/7?tab=karte' }]);
    guard.stop();
  });

  it('lets other origins, new tabs and downloads pass', () => {
    const guard = arm();
    expect(click(link('https://example.org/x')).defaultPrevented).toBe(false);
    expect(click(link('/a', { target: '_blank' })).defaultPrevented).toBe(false);
    expect(click(link('/b'), { ctrlKey: true }).defaultPrevented).toBe(false);
    expect(click(link('/c', { download: '' })).defaultPrevented).toBe(false);
    expect(guard.received).toEqual([]);
    guard.stop();
  });

  it('asks on reload and saves at once', () => {
    const guard = arm();
    const event = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    expect(guard.received).toEqual([{ type: 'editor.saveNow' }]);
    guard.stop();
  });

  it('holds nothing back once disarmed', () => {
    const guard = arm();
    guard.stop();
    expect(click(link('/clients/8')).defaultPrevented).toBe(false);
    const unload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(unload);
    expect(unload.defaultPrevented).toBe(false);
    expect(guard.received).toEqual([]);
  });
});
