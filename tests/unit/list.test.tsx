import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise, type EventObject, type SnapshotFrom } from 'xstate';
import { getStateNodes, TestModel, type StatePath } from 'xstate/graph';
import { z } from 'zod';
import { createI18n } from '../../src/i18n';
import {
  listMachine,
  oneOf,
  parseListSearch,
  searchOf,
  text,
  uuid,
  type ListPage,
  type ListQuery,
} from '../../src/machines/list.machine';
import { ListFrame } from '../../src/views/staff/ListParts';
import { readLocales } from '../support/locales';

/**
 * The generic list machine: model-based paths from the real machine played against the list
 * frame every staff list renders, and the request rules (one request per change, none for a
 * change that changes nothing, stale answers dropped, URL in step).
 */

type ListSnapshot = SnapshotFrom<typeof listMachine>;

const NETWORK = Object.assign(new Error('offline'), { code: 'network_error' });
const ROWS: ListPage = { rows: [{ name: 'Zeile 1' }, { name: 'Zeile 2' }], itemCount: 25 };
const NONE: ListPage = { rows: [], itemCount: 0 };
const START: ListQuery = { page: 1, limit: 10, filters: { sortDirection: 'asc' } };

/** A fake `loadPage` whose calls the test sees and settles, newest first; aborted calls are marked. */
function fakeLoader() {
  const calls: Array<{
    query: ListQuery;
    signal: AbortSignal;
    settled: boolean;
    resolve: (page: ListPage) => void;
    reject: (error: unknown) => void;
  }> = [];
  return {
    calls,
    logic: fromPromise<ListPage, ListQuery>(
      ({ input, signal }) =>
        new Promise<ListPage>((resolve, reject) => {
          const call = {
            query: input,
            signal,
            settled: false,
            resolve: (page: ListPage) => ((call.settled = true), resolve(page)),
            reject: (error: unknown) => ((call.settled = true), reject(error)),
          };
          calls.push(call);
        }),
    ),
    latest: () => calls.at(-1)!,
  };
}

const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

function startList(input: { query: ListQuery } = { query: START }) {
  const loader = fakeLoader();
  const urls: string[] = [];
  const actor = createActor(
    listMachine.provide({
      actors: { loadPage: loader.logic },
      actions: { syncUrl: (_, params) => void urls.push(params.search) },
    }),
    { input: { ...input, sortKeys: { order: 'sortDirection' } } },
  ).start();
  return { actor, loader, urls };
}

let i18n: Awaited<ReturnType<typeof createI18n>>['i18n'];
beforeAll(async () => {
  const setup = createI18n({ lng: 'de', resources: readLocales('de', 'en'), debug: false });
  await setup.ready;
  i18n = setup.i18n;
});

const summary: Array<Record<string, unknown>> = [];
afterAll(() => {
  for (const line of summary) console.log(JSON.stringify(line));
});

describe('list machine, model-based', () => {
  const EVENTS: EventObject[] = [
    { type: 'xstate.done.actor.loadPage', output: ROWS } as EventObject,
    { type: 'xstate.done.actor.loadPage', output: NONE } as EventObject,
    { type: 'xstate.error.actor.loadPage', error: NETWORK } as EventObject,
    { type: 'list.page', page: 2 } as EventObject,
    { type: 'list.filter', filters: { appointmentType: 'initial' } } as EventObject,
    { type: 'list.sort', order: 'desc' } as EventObject,
    { type: 'list.clear' },
    { type: 'list.retry' },
    { type: 'list.reload' },
    { type: 'url.change', query: { page: 3, limit: 10, filters: {} } } as EventObject,
  ];

  const model = new TestModel(listMachine, {
    input: { query: START, sortKeys: { order: 'sortDirection' } },
    events: EVENTS as never,
    stateMatcher: ((state: { _nodes: unknown[] }, key: string) =>
      state._nodes.includes(listMachine.getStateNodeById(key))) as never,
    serializeState: (s) => {
      const snap = s as ListSnapshot;
      return JSON.stringify({ value: snap.value, query: snap.context.query, rows: snap.context.rows.length });
    },
  });
  const paths = model.getShortestPaths();

  it('reaches every state of the machine', () => {
    const expected = getStateNodes(listMachine).map((n) => n.id);
    const reached = new Set<string>();
    for (const path of paths) {
      for (const snap of [path.state, ...path.steps.map((s) => s.state)]) {
        for (const node of (snap as unknown as { _nodes: Array<{ id: string }> })._nodes) reached.add(node.id);
      }
    }
    expect(expected.filter((id) => !reached.has(id))).toEqual([]);
    summary.push({ machine: 'list', states: expected.length, paths: paths.length });
  });

  const name = (path: StatePath<any, EventObject>) =>
    path.steps.map((s) => s.event.type.replace('xstate.', '')).join(' → ') || '(start)';

  it.each(paths.map((p) => [name(p), p] as const))('%s', async (_name, path) => {
    const { actor, loader, urls } = startList();
    const user = userEvent.setup();
    const view = render(
      <I18nextProvider i18n={i18n}>
        <ListFrame actorRef={actor} label="Ergebnisse" emptyText="Keine passenden Einträge.">
          <table>
            <tbody>
              {/* The frame shows rows only when there are some. */}
              <tr>
                <td>Zeile 1</td>
              </tr>
            </tbody>
          </table>
        </ListFrame>
      </I18nextProvider>,
    );
    // Requests so far must match the loads the path has started: exactly one per change.
    let expectedCalls = 1;
    let expectedUrls = 0;
    const settle = async (fn: () => void) => {
      await act(async () => {
        fn();
        await flush();
      });
    };
    const sendDirect = async (event: EventObject) => {
      await act(async () => {
        actor.send(event as never);
        await flush();
      });
      expectedCalls += 1;
      if (event.type !== 'url.change' && event.type !== 'list.reload') expectedUrls += 1;
    };

    await model.testPath(path, {
      events: {
        'xstate.done.actor.loadPage': ({ event }: { event: EventObject }) =>
          settle(() => loader.latest().resolve((event as unknown as { output: ListPage }).output)),
        'xstate.error.actor.loadPage': ({ event }: { event: EventObject }) =>
          settle(() => loader.latest().reject((event as unknown as { error: unknown }).error)),
        'list.page': ({ event }: { event: EventObject }) => sendDirect(event),
        'list.filter': ({ event }: { event: EventObject }) => sendDirect(event),
        'list.sort': ({ event }: { event: EventObject }) => sendDirect(event),
        'list.clear': ({ event }: { event: EventObject }) => sendDirect(event),
        'url.change': ({ event }: { event: EventObject }) => sendDirect(event),
        'list.reload': ({ event }: { event: EventObject }) => sendDirect(event),
        'list.retry': async () => {
          await act(() => user.click(screen.getByRole('button', { name: 'Erneut versuchen' })));
          expectedCalls += 1;
        },
      } as never,
      states: {
        '#list.loading': () => {
          expect(screen.getByRole('status').textContent).toContain('Wird geladen');
          expect(view.container.querySelector('[aria-busy="true"]')).not.toBeNull();
          expect(loader.latest().signal.aborted).toBe(false);
          // Every older call still open was dropped: its fetch is aborted.
          expect(loader.calls.slice(0, -1).every((c) => c.settled || c.signal.aborted)).toBe(true);
          expect(loader.calls).toHaveLength(expectedCalls);
          expect(urls).toHaveLength(expectedUrls);
        },
        '#list.loaded': () => {
          screen.getByText('Zeile 1');
          expect(screen.queryByRole('alert')).toBeNull();
          expect(screen.getByRole('navigation', { name: 'Seiten' }).textContent).toContain('25 Einträge');
          expect(loader.calls).toHaveLength(expectedCalls);
        },
        '#list.empty': () => {
          screen.getByText('Keine passenden Einträge.');
          expect(screen.queryByText('Zeile 1')).toBeNull();
        },
        '#list.failed': () => {
          expect(screen.getByRole('alert').textContent).toContain('Keine Verbindung zum Server');
          expect(screen.queryByText('Zeile 1')).toBeNull();
        },
      },
    });
    // The URL always says what the list shows.
    if (urls.length) expect(urls.at(-1)).toBe(searchOf(actor.getSnapshot().context.query));
    view.unmount();
    actor.stop();
  });
});

describe('list machine, requests', () => {
  it('a page change sends exactly one request, with the new page, and writes it into the URL', async () => {
    const { actor, loader, urls } = startList();
    loader.latest().resolve(ROWS);
    await flush();
    expect(loader.calls).toHaveLength(1);
    actor.send({ type: 'list.page', page: 2 });
    await flush();
    expect(loader.calls).toHaveLength(2);
    expect(loader.latest().query).toEqual({ page: 2, limit: 10, filters: { sortDirection: 'asc' } });
    expect(urls).toEqual(['?sortDirection=asc&page=2']);
  });

  it('a filter change sends exactly one request and goes back to page 1', async () => {
    const { actor, loader, urls } = startList({ query: { ...START, page: 3 } });
    loader.latest().resolve(ROWS);
    await flush();
    actor.send({ type: 'list.filter', filters: { appointmentType: 'initial', coach: '' } });
    await flush();
    expect(loader.calls).toHaveLength(2);
    expect(loader.latest().query).toEqual({
      page: 1,
      limit: 10,
      filters: { appointmentType: 'initial', sortDirection: 'asc' },
    });
    expect(urls).toEqual(['?appointmentType=initial&sortDirection=asc']);
  });

  it('a change that changes nothing sends nothing', async () => {
    const { actor, loader, urls } = startList();
    loader.latest().resolve(ROWS);
    await flush();
    actor.send({ type: 'list.page', page: 1 });
    actor.send({ type: 'list.filter', filters: { sortDirection: 'asc', search: '' } });
    actor.send({ type: 'list.sort', order: 'asc' });
    actor.send({ type: 'url.change', query: START });
    await flush();
    expect(loader.calls).toHaveLength(1);
    expect(urls).toEqual([]);
    expect(actor.getSnapshot().value).toBe('loaded');
  });

  it('a stale answer is dropped: the rows on screen belong to the last query', async () => {
    const { actor, loader } = startList();
    actor.send({ type: 'list.filter', filters: { appointmentType: 'initial' } });
    actor.send({ type: 'list.filter', filters: { appointmentType: 'followup' } });
    await flush();
    expect(loader.calls).toHaveLength(3);
    expect(loader.calls[0]!.signal.aborted).toBe(true);
    expect(loader.calls[1]!.signal.aborted).toBe(true);
    // The newest answers first, then the older ones arrive late.
    loader.calls[2]!.resolve({ rows: [{ id: 'followup' }], itemCount: 1 });
    await flush();
    loader.calls[1]!.resolve({ rows: [{ id: 'initial' }], itemCount: 1 });
    loader.calls[0]!.reject(NETWORK);
    await flush();
    const snap = actor.getSnapshot();
    expect(snap.value).toBe('loaded');
    expect(snap.context.rows).toEqual([{ id: 'followup' }]);
    expect(snap.context.shownQuery?.filters).toEqual({ appointmentType: 'followup', sortDirection: 'asc' });
  });

  it('back and forward adopt the URL without writing it again', async () => {
    const { actor, loader, urls } = startList();
    loader.latest().resolve(ROWS);
    await flush();
    actor.send({ type: 'url.change', query: { page: 2, limit: 10, filters: { sortDirection: 'desc' } } });
    await flush();
    expect(loader.calls).toHaveLength(2);
    expect(loader.latest().query.page).toBe(2);
    expect(urls).toEqual([]);
  });

  it('clear keeps the sort and the page size', async () => {
    const { actor, loader } = startList({
      query: { page: 2, limit: 25, filters: { sortDirection: 'desc', coach: 'x', noShow: 'true' } },
    });
    actor.send({ type: 'list.clear' });
    await flush();
    expect(loader.latest().query).toEqual({ page: 1, limit: 25, filters: { sortDirection: 'desc' } });
  });
});

describe('list query from the URL', () => {
  const schema = z.object({
    appointmentType: oneOf(['initial', 'followup']),
    search: text(10),
    coach: uuid,
  });

  it('keeps what the screen allows and drops the rest', () => {
    expect(
      parseListSearch(
        '?appointmentType=initial&search=%20Mia%20&coach=not-a-uuid&evil=1&page=3&limit=25',
        schema,
      ),
    ).toEqual({ page: 3, limit: 25, filters: { appointmentType: 'initial', search: 'Mia' } });
  });

  it('falls back to page 1 and the default size for bad numbers', () => {
    expect(parseListSearch('?page=0&limit=1000&appointmentType=nope', schema, 10)).toEqual({
      page: 1,
      limit: 10,
      filters: {},
    });
  });

  it('round-trips through searchOf', () => {
    const query = { page: 2, limit: 10, filters: { appointmentType: 'followup' } };
    expect(parseListSearch(searchOf(query), schema)).toEqual(query);
  });
});
