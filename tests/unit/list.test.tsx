import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AnyEventObject } from 'xstate';
import { z } from 'zod';
import { createI18n } from '../../src/i18n';
import {
  FOCUS_THROTTLE_MS,
  listMachine,
  MAX_AUTO_RETRIES,
  oneOf,
  RETRY_INTERVAL_MS,
  parseListSearch,
  searchOf,
  text,
  uuid,
  type ListPage,
  type ListQuery,
} from '../../src/machines/list.machine';
import { ListFrame } from '../../src/views/staff/ListParts';
import { readLocales } from '../support/locales';
import { describeModel, done, failed, flush, startMachine, type Fake } from '../support/model';

/**
 * The generic list machine: model-based paths from the real machine played against the list
 * frame every staff list renders, and the request rules (one request per change, none for a
 * change that changes nothing, stale answers dropped, URL in step).
 */

const NETWORK = Object.assign(new Error('offline'), { code: 'network_error' });
const ROWS: ListPage = { rows: [{ name: 'Zeile 1' }, { name: 'Zeile 2' }], itemCount: 25 };
const NONE: ListPage = { rows: [], itemCount: 0 };
const START: ListQuery = { page: 1, limit: 10, filters: { sortDirection: 'asc' } };

function startList(input: { query: ListQuery } = { query: START }) {
  const urls: string[] = [];
  const started = startMachine(listMachine, {
    input: { ...input, sortKeys: { order: 'sortDirection' } },
    actions: { syncUrl: (_: unknown, params: { search: string }) => void urls.push(params.search) },
  });
  return { ...started, loader: started.fakes.loadPage as Fake<ListQuery, ListPage>, urls };
}

let i18n: Awaited<ReturnType<typeof createI18n>>['i18n'];
beforeAll(async () => {
  const setup = createI18n({ lng: 'de', resources: readLocales('de', 'en'), debug: false });
  await setup.ready;
  i18n = setup.i18n;
});

/** Changes sent straight to the actor: each starts exactly one request, most write the URL. */
const sendDirect = (event: AnyEventObject, r: ListRun) => {
  r.actor.send(event as never);
  r.expectedCalls += 1;
  if (event.type !== 'url.change' && event.type !== 'list.reload') r.expectedUrls += 1;
};

type ListRun = ReturnType<typeof startList> & {
  expectedCalls: number;
  expectedUrls: number;
  user: ReturnType<typeof userEvent.setup>;
};

describeModel('list machine, model-based', {
  machine: listMachine,
  plans: [
    {
      input: { query: START, sortKeys: { order: 'sortDirection' } },
      events: [
        done('loadPage', ROWS),
        done('loadPage', NONE),
        failed('loadPage', NETWORK),
        { type: 'list.page', page: 2 },
        { type: 'list.filter', filters: { appointmentType: 'initial' } },
        { type: 'list.sort', order: 'desc' },
        { type: 'list.clear' },
        { type: 'list.retry' },
        { type: 'list.reload' },
        { type: 'url.change', query: { page: 3, limit: 10, filters: {} } },
        { type: 'list.focus' },
        { type: 'xstate.after.focusThrottle.list.loaded' },
        { type: 'xstate.after.focusThrottle.list.empty' },
        { type: 'xstate.after.retryInterval.list.failed' },
      ],
      serialize: (s) => ({
        query: s.context.query,
        rows: s.context.rows.length,
        focusReady: s.context.focusReady,
      }),
    },
  ],
  start: (): ListRun => {
    const run = { ...startList(), expectedCalls: 1, expectedUrls: 0, user: userEvent.setup() };
    render(
      <I18nextProvider i18n={i18n}>
        <ListFrame actorRef={run.actor} label="Ergebnisse" emptyText="Keine passenden Einträge.">
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
    return run;
  },
  wrap: (step) => act(step),
  // Requests so far must match the loads the path has started: exactly one per change.
  events: {
    'list.page': sendDirect,
    'list.filter': sendDirect,
    'list.sort': sendDirect,
    'list.clear': sendDirect,
    'url.change': sendDirect,
    'list.reload': sendDirect,
    // Focus loads again only when the rows are old enough, or after a failure.
    'list.focus': (event, r) => {
      const snap = r.actor.getSnapshot();
      if (snap.matches('failed') || snap.context.focusReady) r.expectedCalls += 1;
      r.actor.send(event);
    },
    'xstate.after.retryInterval.list.failed': (_, r) => {
      r.clock.increment(RETRY_INTERVAL_MS);
      r.expectedCalls += 1;
    },
    'list.retry': async (_, r) => {
      await r.user.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
      r.expectedCalls += 1;
    },
  },
  states: {
    '#list.loading': (_, r) => {
      expect(screen.getByRole('status').textContent).toContain('Wird geladen');
      expect(document.querySelector('[aria-busy="true"]')).not.toBeNull();
      expect(r.loader.latest().signal.aborted).toBe(false);
      // Every older call still open was dropped: its fetch is aborted.
      expect(r.loader.all.slice(0, -1).every((c) => c.settled || c.signal.aborted)).toBe(true);
      expect(r.loader.calls).toHaveLength(r.expectedCalls);
      expect(r.urls).toHaveLength(r.expectedUrls);
    },
    '#list.loaded': (_, r) => {
      screen.getByText('Zeile 1');
      expect(screen.queryByRole('alert')).toBeNull();
      expect(screen.getByRole('navigation', { name: 'Seiten' }).textContent).toContain(
        '25 Einträge',
      );
      expect(r.loader.calls).toHaveLength(r.expectedCalls);
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
  finish: (r) => {
    // The URL always says what the list shows.
    if (r.urls.length) expect(r.urls.at(-1)).toBe(searchOf(r.actor.getSnapshot().context.query));
  },
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
    expect(loader.latest().input).toEqual({
      page: 2,
      limit: 10,
      filters: { sortDirection: 'asc' },
    });
    expect(urls).toEqual(['?sortDirection=asc&page=2']);
  });

  it('a filter change sends exactly one request and goes back to page 1', async () => {
    const { actor, loader, urls } = startList({ query: { ...START, page: 3 } });
    loader.latest().resolve(ROWS);
    await flush();
    actor.send({ type: 'list.filter', filters: { appointmentType: 'initial', coach: '' } });
    await flush();
    expect(loader.calls).toHaveLength(2);
    expect(loader.latest().input).toEqual({
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
    expect(loader.all[0]!.signal.aborted).toBe(true);
    expect(loader.all[1]!.signal.aborted).toBe(true);
    // The newest answers first, then the older ones arrive late.
    loader.all[2]!.resolve({ rows: [{ id: 'followup' }], itemCount: 1 });
    await flush();
    loader.all[1]!.resolve({ rows: [{ id: 'initial' }], itemCount: 1 });
    loader.all[0]!.reject(NETWORK);
    await flush();
    const snap = actor.getSnapshot();
    expect(snap.value).toBe('loaded');
    expect(snap.context.rows).toEqual([{ id: 'followup' }]);
    expect(snap.context.shownQuery?.filters).toEqual({
      appointmentType: 'followup',
      sortDirection: 'asc',
    });
  });

  it('back and forward adopt the URL without writing it again', async () => {
    const { actor, loader, urls } = startList();
    loader.latest().resolve(ROWS);
    await flush();
    actor.send({
      type: 'url.change',
      query: { page: 2, limit: 10, filters: { sortDirection: 'desc' } },
    });
    await flush();
    expect(loader.calls).toHaveLength(2);
    expect(loader.latest().input.page).toBe(2);
    expect(urls).toEqual([]);
  });

  it('clear keeps the sort and the page size', async () => {
    const { actor, loader } = startList({
      query: { page: 2, limit: 25, filters: { sortDirection: 'desc', coach: 'x', noShow: 'true' } },
    });
    actor.send({ type: 'list.clear' });
    await flush();
    expect(loader.latest().input).toEqual({
      page: 1,
      limit: 25,
      filters: { sortDirection: 'desc' },
    });
  });
});

describe('list machine, fresh data (retry interval and focus throttle 5 s)', () => {
  const SERVER_FAULT = Object.assign(new Error('down'), { code: 'internal_error', status: 503 });
  const REFUSED = Object.assign(new Error('no'), { code: 'forbidden', status: 403 });

  it('a network error is retried after 5 s, not before, with the same query', async () => {
    const { actor, loader, clock } = startList();
    loader.latest().reject(NETWORK);
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
    clock.increment(RETRY_INTERVAL_MS - 1);
    await flush();
    expect(loader.calls).toHaveLength(1);
    clock.increment(1);
    await flush();
    expect(loader.calls).toHaveLength(2);
    expect(loader.latest().input).toEqual(START);
    loader.latest().resolve(ROWS);
    await flush();
    expect(actor.getSnapshot().value).toBe('loaded');
  });

  it('a server fault is retried too, a refusal is not', async () => {
    const fault = startList();
    fault.loader.latest().reject(SERVER_FAULT);
    await flush();
    fault.clock.increment(RETRY_INTERVAL_MS);
    await flush();
    expect(fault.loader.calls).toHaveLength(2);

    const refused = startList();
    refused.loader.latest().reject(REFUSED);
    await flush();
    refused.clock.increment(RETRY_INTERVAL_MS * 10);
    await flush();
    expect(refused.loader.calls).toHaveLength(1);
    expect(refused.actor.getSnapshot().value).toBe('failed');
  });

  it(`stops retrying by itself after ${MAX_AUTO_RETRIES} tries in a row; the button starts anew`, async () => {
    const { actor, loader, clock } = startList();
    loader.latest().reject(NETWORK);
    await flush();
    for (let i = 0; i < MAX_AUTO_RETRIES + 3; i += 1) {
      clock.increment(RETRY_INTERVAL_MS);
      await flush();
      if (!loader.latest().settled) loader.latest().reject(NETWORK);
      await flush();
    }
    expect(loader.calls).toHaveLength(1 + MAX_AUTO_RETRIES);
    actor.send({ type: 'list.retry' });
    await flush();
    expect(loader.calls).toHaveLength(2 + MAX_AUTO_RETRIES);
    loader.latest().reject(NETWORK);
    await flush();
    clock.increment(RETRY_INTERVAL_MS);
    await flush();
    expect(loader.calls).toHaveLength(3 + MAX_AUTO_RETRIES);
  });

  it('regaining focus reloads the list once its rows are 5 s old, not sooner', async () => {
    const { actor, loader, clock, urls } = startList();
    loader.latest().resolve(ROWS);
    await flush();
    actor.send({ type: 'list.focus' });
    await flush();
    expect(loader.calls).toHaveLength(1);
    clock.increment(FOCUS_THROTTLE_MS);
    actor.send({ type: 'list.focus' });
    await flush();
    expect(loader.calls).toHaveLength(2);
    expect(loader.latest().input).toEqual(START);
    expect(urls).toEqual([]);
    // The fresh answer starts the throttle again.
    loader.latest().resolve(ROWS);
    await flush();
    actor.send({ type: 'list.focus' });
    await flush();
    expect(loader.calls).toHaveLength(2);
  });

  it('the window focus listener sends list.focus, and stops with the list', async () => {
    const { watchWindowFocus } = await import('../../src/machines/wiring/list');
    const started = startMachine(listMachine, {
      input: { query: START },
      actors: { watchFocus: watchWindowFocus },
    });
    const load = started.fakes.loadPage as Fake<ListQuery, ListPage>;
    load.latest().resolve(ROWS);
    await flush();
    started.clock.increment(FOCUS_THROTTLE_MS);
    window.dispatchEvent(new Event('focus'));
    await flush();
    expect(load.calls).toHaveLength(2);
    started.actor.stop();
    window.dispatchEvent(new Event('focus'));
    await flush();
    expect(load.calls).toHaveLength(2);
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
