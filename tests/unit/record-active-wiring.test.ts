// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { wireCoachActive } from '../../src/machines/wiring/coach-detail';
import type { RouteEffects, RouteToast } from '../../src/machines/wiring/effects';
import { wireUserActive } from '../../src/machines/wiring/user-detail';
import { flush } from '../support/model';

/** The (de)activation of coaches and users: the API call, the toast for the way it went, the reload. */
function run(wire: typeof wireCoachActive, active: boolean) {
  const calls: string[] = [];
  const toasts: RouteToast[] = [];
  let reloads = 0;
  const answer = (method: string) => (path: string) => {
    calls.push(`${method} ${path}`);
    return Promise.resolve({ data: {}, response: new Response() });
  };
  const api = { PUT: answer('PUT'), DELETE: answer('DELETE'), POST: answer('POST') };
  const effects = { api, toast: (t: RouteToast) => toasts.push(t) } as unknown as RouteEffects;
  const actor = createActor(wire(effects, () => reloads++)).start();
  actor.send({ type: 'action.ask', payload: { id: 'x', active } });
  actor.send({ type: 'action.confirm' });
  return { calls, toasts, reloads: () => reloads };
}

describe('record (de)activation wiring', () => {
  it.each([
    [wireCoachActive, true, 'PUT /coach/{coachId}', 'staff:toasts.coachReactivated'],
    [wireCoachActive, false, 'DELETE /coach/{coachId}', 'staff:toasts.coachDeactivated'],
    [wireUserActive, true, 'POST /user/{id}', 'staff:toasts.userActivated'],
    [wireUserActive, false, 'POST /user/{id}', 'staff:toasts.userDeactivated'],
  ])('%#: calls the API, toasts and reloads', async (wire, active, call, messageKey) => {
    const { calls, toasts, reloads } = run(wire, active);
    await flush();
    await flush();
    expect(calls).toEqual([call]);
    expect(toasts).toEqual([{ kind: 'success', messageKey }]);
    expect(reloads()).toBe(1);
  });
});
