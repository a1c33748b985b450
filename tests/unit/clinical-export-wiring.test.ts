import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import type { RouteEffects, RouteToast } from '../../src/machines/wiring/effects';
import { wireClinicalExport } from '../../src/machines/wiring/clinical-export';
import { flush } from '../support/model';

/** The client's clinical documents as one PDF: asked first, then the server's file is saved. */
function run(answer: () => Promise<unknown>) {
  const calls: Array<{ path: string; clientId: string; parseAs: string }> = [];
  const toasts: RouteToast[] = [];
  const api = {
    GET: (path: string, init: { params: { path: { clientId: string } }; parseAs: string }) => {
      calls.push({ path, clientId: init.params.path.clientId, parseAs: init.parseAs });
      return answer();
    },
  };
  const effects = { api, toast: (t: RouteToast) => toasts.push(t) } as unknown as RouteEffects;
  const actor = createActor(wireClinicalExport(effects)).start();
  actor.send({ type: 'action.ask', payload: { clientId: 'c1' } });
  expect(calls).toEqual([]);
  actor.send({ type: 'action.confirm' });
  return { actor, calls, toasts };
}

describe('clinical export wiring', () => {
  it('downloads the PDF under the name the server gives, and says so', async () => {
    const saved: string[] = [];
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:x');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push(this.download);
    });
    const response = new Response(null, {
      headers: {
        'content-disposition': 'attachment; filename="klinische-dokumente-mustermann.pdf"',
      },
    });
    const { calls, toasts } = run(() => Promise.resolve({ data: new Blob(['%PDF-']), response }));
    await flush();
    await flush();
    expect(calls).toEqual([
      { path: '/admin/client/{clientId}/clinical-export', clientId: 'c1', parseAs: 'blob' },
    ]);
    expect(saved).toEqual(['klinische-dokumente-mustermann.pdf']);
    expect(toasts).toEqual([{ kind: 'success', messageKey: 'clinical:export.done' }]);
  });

  it('keeps the question open with the error when the server refuses', async () => {
    const { actor, toasts } = run(() =>
      Promise.reject(Object.assign(new Error('404'), { status: 404, code: 'not_found' })),
    );
    await flush();
    await flush();
    expect(actor.getSnapshot().hasTag('error')).toBe(true);
    expect(actor.getSnapshot().context.error?.code).toBe('not_found');
    expect(toasts).toEqual([]);
  });
});
