import { act, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createActor, toPromise, type AnyActorLogic } from 'xstate';
import type { ApiClient } from '../../src/api/client';
import { createI18n } from '../../src/i18n';
import {
  REVIEW_TRANSITIONS,
  loadReviewMatchingActor,
  loadReviewOverviewActor,
  loadReviewPageActor,
  submitReviewBatchActor,
  type ReviewRow,
} from '../../src/machines/actors/staff/review';
import { batchActionMachine } from '../../src/machines/batch-action.machine';
import { BatchDialog, BatchResult, SelectionBar } from '../../src/views/parts/BatchParts';
import { reviewWording } from '../../src/views/review/columns';
import { readLocale, readLocales } from '../support/locales';
import { flush, startMachine } from '../support/model';

/** /review's calls as rows, "select all matches" page by page, the batch call; the shared batch parts in its words. */

const person = (id: string, firstName: string) => ({ id, firstName, lastName: 'Muster' });
const signedItem = (n: number) => ({
  summaryId: `s${n}`,
  appointmentId: `a${n}`,
  appointmentStartDate: '2026-11-20T09:00:00.000Z',
  appointmentType: 'followup',
  client: person(`c${n}`, `Kim${n}`),
  coach: person('k', 'Coach'),
  status: 'sent',
  signedAt: '2026-11-21T09:00:00.000Z',
  daysWaiting: 2,
});

function fakeApi(total = 3) {
  const GET = vi.fn(
    async (path: string, opts: { params: { query: { page: number; limit: number } } }) => {
      const { page, limit } = opts.params.query;
      const from = (page - 1) * limit;
      const n = Math.max(0, Math.min(limit, total - from));
      const items = Array.from({ length: n }, (_, i) => signedItem(from + i));
      if (path === '/summaries/incomplete') {
        return {
          data: {
            summaries: items.map((s) => ({
              ...s,
              summaryId: null,
              status: 'missing',
              daysOverdue: 4,
            })),
            itemCount: total,
          },
        };
      }
      return { data: { summaries: items, itemCount: total } };
    },
  );
  const POST = vi.fn(async () => ({ data: { processed: 2 } }));
  return { api: { GET, POST } as unknown as ApiClient, GET, POST };
}

const run = <L extends AnyActorLogic>(logic: L, input: unknown) =>
  toPromise(createActor(logic, { input } as never).start());

describe('review calls', () => {
  it('reads the tab and coach from the URL filters and gives one row shape', async () => {
    const { api, GET } = fakeApi();
    const page = (await run(loadReviewPageActor(api), {
      page: 1,
      limit: 25,
      filters: { coach: 'k' },
    })) as {
      rows: readonly ReviewRow[];
    };
    expect(GET).toHaveBeenLastCalledWith(
      '/review/summaries',
      expect.objectContaining({
        params: { query: { page: 1, limit: 25, coachId: 'k' } },
      }),
    );
    expect(page.rows[0]).toMatchObject({
      id: 's0',
      documentId: 's0',
      kind: 'summary',
      status: 'sent',
      days: 2,
    });

    const open = (await run(loadReviewPageActor(api), {
      page: 1,
      limit: 25,
      filters: { tab: 'openSummaries' },
    })) as {
      rows: readonly ReviewRow[];
    };
    expect(GET).toHaveBeenLastCalledWith('/summaries/incomplete', expect.anything());
    expect(open.rows[0]).toMatchObject({
      id: 'a0',
      documentId: null,
      status: 'missing',
      days: 4,
      signedAt: null,
    });
  });

  it('selects every match page by page, at most one batch', async () => {
    const { api, GET } = fakeApi(1250);
    const matching = await run(loadReviewMatchingActor(api), { tab: 'summaries' });
    expect(GET).toHaveBeenCalledTimes(10);
    expect(matching).toMatchObject({ itemCount: 1250, capped: true });
    expect((matching as { items: readonly unknown[] }).items).toHaveLength(1000);
  });

  it('completes the tab kind with the batch key', async () => {
    const { api, POST } = fakeApi();
    const out = await run(submitReviewBatchActor(api, 'patientCard'), {
      action: 'complete',
      ids: ['x', 'y'],
      idempotencyKey: 'key-1',
    });
    expect(out).toEqual({ count: 2 });
    expect(POST).toHaveBeenCalledWith(
      '/patient-cards/batch-process',
      expect.objectContaining({
        params: { header: { 'Idempotency-Key': 'key-1' } },
        body: { ids: ['x', 'y'] },
      }),
    );
  });
});

describe('the /review overview', () => {
  it("loads the patient cards' overall status beside the tasks', for the coach filter", async () => {
    const answers: Record<string, unknown> = {
      '/tasks/overall-status': { status: 'available', overdue: 0 },
      '/patient-cards/overall-status': { status: 'blocker', overdue: 2 },
      '/review/pending-by-coach': { coaches: [], itemCount: 0 },
    };
    const GET = vi.fn(async (path: string) => ({ data: answers[path] }));
    const out = await run(loadReviewOverviewActor({ GET } as unknown as ApiClient), { id: 'k' });
    expect(out).toEqual({
      status: answers['/tasks/overall-status'],
      cards: answers['/patient-cards/overall-status'],
      pending: answers['/review/pending-by-coach'],
    });
    expect(GET).toHaveBeenCalledWith(
      '/patient-cards/overall-status',
      expect.objectContaining({
        params: { query: { coachId: 'k' } },
      }),
    );
  });
});

describe('the batch parts in /review words', () => {
  let i18n: Awaited<ReturnType<typeof createI18n>>['i18n'];
  beforeAll(async () => {
    const setup = createI18n({ lng: 'de', resources: readLocales('de', 'en'), debug: false });
    await setup.ready;
    i18n = setup.i18n;
  });

  it('has every text the parts read, in German and English', () => {
    const parts = [
      'selection.actions',
      'selection.none',
      'selection.summary_one',
      'selection.summary_other',
      'selection.capped',
      'selection.loadingMatching',
      'selection.matchingFailed',
      'selection.allMatching',
      'selection.allMatchingCapped',
      'selection.clear',
      'selection.noAction',
      'done.close',
      'conflict.title',
      'conflict.intro_one',
      'conflict.intro_other',
      'conflict.unknownItem',
      'conflict.now',
      'conflict.retry_one',
      'conflict.retry_other',
      'conflict.deselectOnly',
      'conflict.back',
      'confirm.title',
      'confirm.question_one',
      'confirm.question_other',
      'confirm.allOrNothing',
      'confirm.failed',
      'confirm.retry',
      'confirm.running',
      'confirm.back',
    ];
    const at = (tree: unknown, path: string) =>
      path
        .split('.')
        .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], tree);
    for (const lng of ['de', 'en']) {
      const locale = readLocale(lng);
      for (const [ns, prefix] of [
        ['review', 'batch'],
        ['staff', 'billingItems'],
      ] as const) {
        const missing = parts.filter((p) => typeof at(locale[ns], `${prefix}.${p}`) !== 'string');
        expect(missing, `${lng} ${ns}:${prefix}`).toEqual([]);
      }
    }
  });

  it('counts documents, completes them, names the result by kind, and names a refused one', async () => {
    const row = {
      id: 's1',
      client: person('c', 'Kim'),
      appointmentStartDate: '2026-11-20T09:00:00.000Z',
    } as ReviewRow;
    const wording = reviewWording('summary', [row]);
    const started = startMachine(batchActionMachine, {
      input: { transitions: REVIEW_TRANSITIONS, filter: {} },
    });
    render(
      <I18nextProvider i18n={i18n}>
        <BatchResult actorRef={started.actor} wording={wording} />
        <SelectionBar actorRef={started.actor} wording={wording} matchCount={2} pageRows={2} />
        <BatchDialog actorRef={started.actor} wording={wording} />
      </I18nextProvider>,
    );
    act(() => started.actor.send({ type: 'batch.toggle', item: { id: 's1', status: 'sent' } }));
    act(() => started.actor.send({ type: 'batch.toggle', item: { id: 's2', status: 'sent' } }));
    expect(screen.getAllByRole('status')[0]!.textContent).toBe('2 Dokumente ausgewählt');
    act(() => started.actor.send({ type: 'batch.choose', action: 'complete' }));
    expect(screen.getByText('Abschließen: 2 Dokumente?')).toBeTruthy();
    act(() => started.actor.send({ type: 'batch.confirm' }));
    await act(async () => {
      started.fakes.submitBatch!.reject({
        status: 409,
        code: 'batch_refused',
        fieldErrors: [{ id: 's1', status: 'completed', code: 'invalid_transition' }],
      });
      await flush();
    });
    expect(screen.getByText('Kim Muster, 20.11.2026')).toBeTruthy();
    expect(screen.getByText(/jetzt: abgeschlossen, nur unterschriebene Dokumente/)).toBeTruthy();
    act(() => started.actor.send({ type: 'batch.deselectConflicts' }));
    await act(async () => {
      started.fakes.submitBatch!.resolve({ count: 1 });
      await flush();
    });
    expect(screen.getAllByRole('status').map((s) => s.textContent)).toContain(
      '1 Zusammenfassung abgeschlossen',
    );
  });
});
