import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { createI18n } from '../../src/i18n';
import {
  listMachine,
  type ListPage,
  type ListQuery,
  type SortKeys,
} from '../../src/machines/list.machine';
import {
  type Column,
  DataTable,
  type RowSelection,
  type SortState,
} from '../../src/views/staff/DataTable';
import { readLocales } from '../support/locales';
import { flush, startMachine, type Fake } from '../support/model';

/**
 * The one table view of the staff lists, as a person sees it: German headers, a row per record,
 * sortable headers that say their order, the pager, and the empty and error states.
 */

interface Person {
  id: string;
  name: string;
  createdAt: string;
}

const COLUMNS: readonly Column<Person>[] = [
  { header: 'staff:clients.columns.name', sortKey: 'lastName', cell: (p) => p.name },
  { header: 'staff:clients.columns.createdAt', sortKey: 'createdAt', cell: (p) => p.createdAt },
  {
    header: 'staff:users.columns.action',
    width: 'narrow',
    cell: (p, t) => `${t('users.edit')} ${p.name}`,
  },
];

const PAGE_1: ListPage<Person> = {
  rows: [
    { id: 'a', name: 'Berg, Anna', createdAt: '01.03.2026' },
    { id: 'b', name: 'Kurz, Ben', createdAt: '02.03.2026' },
  ],
  itemCount: 12,
};
const PAGE_2: ListPage<Person> = {
  rows: [{ id: 'c', name: 'Roth, Clara', createdAt: '03.03.2026' }],
  itemCount: 12,
};
const NONE: ListPage<Person> = { rows: [], itemCount: 0 };
const NETWORK = Object.assign(new Error('offline'), { code: 'network_error' });
const SORT_KEYS: SortKeys = { by: 'sortBy', order: 'sortOrder' };

let i18n: Awaited<ReturnType<typeof createI18n>>['i18n'];
beforeAll(async () => {
  const setup = createI18n({ lng: 'de', resources: readLocales('de', 'en'), debug: false });
  await setup.ready;
  i18n = setup.i18n;
});

function show(
  options: {
    filters?: Record<string, string>;
    defaultSort?: SortState;
    selection?: RowSelection<Person>;
  } = {},
) {
  const urls: string[] = [];
  const query: ListQuery = { page: 1, limit: 10, filters: options.filters ?? {} };
  const started = startMachine(listMachine, {
    input: { query, sortKeys: SORT_KEYS },
    actions: { syncUrl: (_: unknown, params: { search: string }) => void urls.push(params.search) },
  });
  render(
    <I18nextProvider i18n={i18n}>
      <DataTable
        actorRef={started.actor}
        columns={COLUMNS}
        label="Klient:innen"
        emptyText="Keine Klient:innen gefunden."
        filters={<p>Filterzeile</p>}
        {...(options.defaultSort ? { defaultSort: options.defaultSort } : {})}
        selection={options.selection}
      />
    </I18nextProvider>,
  );
  const loader = started.fakes.loadPage as Fake<ListQuery, ListPage<Person>>;
  const answer = async (page: ListPage<Person> | Error) => {
    await act(async () => {
      if (page instanceof Error) loader.reject(page);
      else loader.resolve(page);
      await flush();
    });
  };
  return { ...started, loader, urls, answer, user: userEvent.setup() };
}

const table = () =>
  within(screen.getByRole('region', { name: 'Klient:innen' })).getByRole('table', {
    name: 'Klient:innen',
  });
const headers = () => within(table()).getAllByRole('columnheader');
const bodyRows = () => within(table()).getAllByRole('row').slice(1);

describe('DataTable', () => {
  it('shows the filters slot, the German headers and one row per record with its cells', async () => {
    const r = show();
    screen.getByText('Filterzeile');
    expect(screen.getByRole('status').textContent).toContain('Wird geladen');
    await r.answer(PAGE_1);
    expect(headers().map((h) => h.textContent)).toEqual(['Name', 'Angelegt am', 'Aktion']);
    expect(
      bodyRows().map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['Berg, Anna', '01.03.2026', 'Bearbeiten Berg, Anna'],
      ['Kurz, Ben', '02.03.2026', 'Bearbeiten Kurz, Ben'],
    ]);
    expect(headers()[2]!.className).toBe('col-narrow');
    expect(screen.getByRole('navigation', { name: 'Seiten' }).textContent).toContain('12 Einträge');
  });

  it('with a selection, a named box per row and one for the page (mixed while some are ticked)', async () => {
    const picked = new Set<string>(['a']);
    const calls: string[] = [];
    const r = show({
      selection: {
        isSelected: (p) => picked.has(p.id),
        toggle: (p) => void calls.push(`toggle ${p.id}`),
        togglePage: (rows, selected) =>
          void calls.push(`page ${rows.map((p) => p.id).join()} ${selected}`),
        rowLabel: (p) => `${p.name} auswählen`,
        pageLabel: 'Alle auf dieser Seite auswählen',
        header: 'Auswahl',
      },
    });
    await r.answer(PAGE_1);
    expect(headers().map((h) => h.textContent)).toEqual([
      'Auswahl',
      'Name',
      'Angelegt am',
      'Aktion',
    ]);
    const page = screen.getByRole<HTMLInputElement>('checkbox', {
      name: 'Alle auf dieser Seite auswählen',
    });
    expect(page.checked).toBe(false);
    expect(page.indeterminate).toBe(true);
    expect(
      screen.getByRole<HTMLInputElement>('checkbox', { name: 'Berg, Anna auswählen' }).checked,
    ).toBe(true);
    expect(bodyRows()[0]!.className).toBe('is-selected');
    await r.user.click(screen.getByRole('checkbox', { name: 'Kurz, Ben auswählen' }));
    await r.user.click(page);
    expect(calls).toEqual(['toggle b', 'page a,b true']);
  });

  it('without a default sort no header is a button', async () => {
    const r = show();
    await r.answer(PAGE_1);
    expect(within(table()).queryAllByRole('button')).toEqual([]);
    expect(headers().every((h) => !h.hasAttribute('aria-sort'))).toBe(true);
  });

  it('a sortable header says its order; a click sorts by it, and a second click turns the order', async () => {
    const r = show({ defaultSort: { by: 'createdAt', order: 'desc' } });
    await r.answer(PAGE_1);
    const [name, created, action] = headers();
    expect(created!.getAttribute('aria-sort')).toBe('descending');
    expect(name!.hasAttribute('aria-sort')).toBe(false);
    expect(within(action!).queryByRole('button')).toBeNull();

    await r.user.click(within(name!).getByRole('button', { name: 'Name' }));
    expect(r.urls.at(-1)).toBe('?sortBy=lastName&sortOrder=asc');
    expect(r.loader.latest().input.filters).toEqual({ sortBy: 'lastName', sortOrder: 'asc' });
    expect(headers()[0]!.getAttribute('aria-sort')).toBe('ascending');
    expect(headers()[1]!.hasAttribute('aria-sort')).toBe(false);
    await r.answer(PAGE_1);

    await r.user.click(screen.getByRole('button', { name: 'Name' }));
    expect(r.urls.at(-1)).toBe('?sortBy=lastName&sortOrder=desc');
    expect(headers()[0]!.getAttribute('aria-sort')).toBe('descending');
  });

  it('reads the sort from the address it started with', async () => {
    const r = show({
      filters: { sortBy: 'lastName', sortOrder: 'asc' },
      defaultSort: { by: 'createdAt', order: 'desc' },
    });
    await r.answer(PAGE_1);
    expect(headers()[0]!.getAttribute('aria-sort')).toBe('ascending');
    expect(headers()[1]!.hasAttribute('aria-sort')).toBe(false);
  });

  it('pages forward and back with the pager, one request each', async () => {
    const r = show();
    await r.answer(PAGE_1);
    const pager = screen.getByRole('navigation', { name: 'Seiten' });
    expect(within(pager).getByRole('button', { name: 'Vorherige Seite' })).toHaveProperty(
      'disabled',
      true,
    );
    await r.user.click(within(pager).getByRole('button', { name: 'Nächste Seite' }));
    expect(r.loader.latest().input.page).toBe(2);
    expect(r.urls).toEqual(['?page=2']);
    await r.answer(PAGE_2);
    expect(bodyRows().map((row) => within(row).getAllByRole('cell')[0]!.textContent)).toEqual([
      'Roth, Clara',
    ]);
    const pagerNow = screen.getByRole('navigation', { name: 'Seiten' });
    expect(within(pagerNow).getByText('Seite 2 von 2')).toBeTruthy();
    expect(within(pagerNow).getByRole('button', { name: 'Nächste Seite' })).toHaveProperty(
      'disabled',
      true,
    );
    await r.user.click(within(pagerNow).getByRole('button', { name: 'Vorherige Seite' }));
    expect(r.loader.latest().input.page).toBe(1);
    expect(r.loader.calls).toHaveLength(3);
  });

  it('says so when nothing matches, with no table and no pager', async () => {
    const r = show();
    await r.answer(NONE);
    expect(screen.getByRole('status').textContent).toBe('Keine Klient:innen gefunden.');
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByRole('navigation', { name: 'Seiten' })).toBeNull();
  });

  it('shows the error in German with a retry that loads again', async () => {
    const r = show();
    await r.answer(NETWORK);
    expect(screen.getByRole('alert').textContent).toContain('Keine Verbindung zum Server');
    expect(screen.queryByRole('table')).toBeNull();
    await r.user.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    expect(r.loader.calls).toHaveLength(2);
    await r.answer(PAGE_1);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(bodyRows()).toHaveLength(2);
  });
});
