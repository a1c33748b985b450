import { useSelector } from '@xstate/react';
import type { TFunction } from 'i18next';
import { type ReactNode, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { rowsOf } from '../../machines/list.machine';
import { type ListActor, ListFrame } from './ListParts';

/**
 * One column of a staff table, as data: the header's translation key, how a row fills its cell,
 * the sort value it stands for (only where the API sorts by it) and a width hint.
 */
export interface Column<Row> {
  /** Translation key of the header (`tKey('staff:…')`, so the locales test checks it). */
  header: string;
  cell: (row: Row, t: TFunction<'staff'>) => ReactNode;
  /** The list's sort value this column sorts by; without one the header is plain text. */
  sortKey?: string;
  /** `narrow`: as wide as its content (actions, flags); `wide`: room for longer text. */
  width?: 'narrow' | 'wide';
  /**
   * The cell that names the row (a client's name, an invoice's number): on a phone, where each row
   * is a card, it heads the card. Without one, the first column does.
   */
  primary?: boolean;
  /** The cell is the row's header (`<th scope="row">`), as in a table of figures per kind. */
  rowHeader?: boolean;
  /** Amounts and counts: aligned at the end on desks, on one line. */
  numeric?: boolean;
}

/** The sort a list shows: `by` is absent where the API sorts by one field only. */
export interface SortState {
  by?: string | undefined;
  order: 'asc' | 'desc';
}

const ARIA_SORT = { asc: 'ascending', desc: 'descending' } as const;

/**
 * A checkbox column in front (multi-select for a batch action): each row's box and one in the
 * header for the rows on this page. The page's machine keeps what is selected.
 */
export interface RowSelection<Row> {
  isSelected: (row: Row) => boolean;
  toggle: (row: Row) => void;
  /** Selects (or deselects) every row on this page. */
  togglePage: (rows: readonly Row[], selected: boolean) => void;
  /** Accessible name of a row's box ("Position Mia Maier, 12.03.2026 auswählen"). */
  rowLabel: (row: Row) => string;
  /** Accessible name of the header's box. */
  pageLabel: string;
  /** Header text above the boxes (visually hidden). */
  header: string;
  disabled?: boolean;
}

/** The header's box: checked when every row is, mixed when some are. */
function PageCheckbox<Row>({
  rows,
  selection,
}: {
  rows: readonly Row[];
  selection: RowSelection<Row>;
}) {
  const ref = useRef<HTMLInputElement>(null);
  const count = rows.filter((row) => selection.isSelected(row)).length;
  const all = rows.length > 0 && count === rows.length;
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = count > 0 && !all;
  }, [count, all]);
  return (
    <input
      ref={ref}
      type="checkbox"
      aria-label={selection.pageLabel}
      checked={all}
      disabled={selection.disabled}
      onChange={() => selection.togglePage(rows, !all)}
    />
  );
}

/**
 * A table of rows: caption (visually hidden unless `showCaption`), one header per column, one
 * row per record. Sortable headers are buttons; the sorted one carries `aria-sort`, and a click on
 * it turns the order.
 *
 * Every list of the app is this table, and every cell carries its column's name (`data-label`)
 * and its content in a `.cell-value`: where the table's box is narrower than a desk's list
 * (phones, a tablet with the menu open), staff.css lays each row out as a card with label and
 * value per line, headed by the row's primary cell, and the sort buttons above the cards.
 */
export function Table<Row extends { id: string }>({
  columns,
  rows,
  caption,
  showCaption = false,
  className,
  sort,
  onSort,
  selection,
}: {
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  caption: string;
  showCaption?: boolean;
  /** Further classes of the `<table>` (a page's own look, the stale rows while loading). */
  className?: string | undefined;
  sort?: SortState | undefined;
  onSort?: ((sort: SortState) => void) | undefined;
  selection?: RowSelection<Row> | undefined;
}) {
  const { t } = useTranslation('staff');
  const primary = Math.max(
    0,
    columns.findIndex((column) => column.primary),
  );
  return (
    // Wider than its box (a tablet with the menu open): the table scrolls inside this box, which
    // the keyboard can reach.
    <div
      className="table-scroll"
      role="group"
      tabIndex={0}
      aria-label={t('list.tableScroll', { caption })}
    >
      <table className={className ? `staff-table ${className}` : 'staff-table'}>
        <caption className={showCaption ? 'table-caption' : 'visually-hidden'}>{caption}</caption>
        <thead>
          <tr>
            {selection ? (
              <th scope="col" className="col-narrow col-select" data-label={selection.pageLabel}>
                <span className="visually-hidden">{selection.header}</span>
                <PageCheckbox rows={rows} selection={selection} />
              </th>
            ) : null}
            {columns.map((column) => {
              const sortable =
                column.sortKey !== undefined && sort !== undefined && onSort !== undefined;
              const sorted = sortable && (sort.by === undefined || sort.by === column.sortKey);
              return (
                <th
                  key={column.header}
                  scope="col"
                  className={
                    [column.width && `col-${column.width}`, column.numeric && 'col-numeric']
                      .filter(Boolean)
                      .join(' ') || undefined
                  }
                  aria-sort={sorted ? ARIA_SORT[sort.order] : undefined}
                >
                  {sortable ? (
                    <button
                      type="button"
                      className="sort-button"
                      onClick={() =>
                        onSort({
                          by: column.sortKey,
                          order: sorted && sort.order === 'asc' ? 'desc' : 'asc',
                        })
                      }
                    >
                      {t(column.header)}
                    </button>
                  ) : (
                    t(column.header)
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} className={selection?.isSelected(row) ? 'is-selected' : undefined}>
              {selection ? (
                <td className="cell-select" data-label={selection.header}>
                  <div className="cell-value">
                    <input
                      type="checkbox"
                      aria-label={selection.rowLabel(row)}
                      checked={selection.isSelected(row)}
                      disabled={selection.disabled}
                      onChange={() => selection.toggle(row)}
                    />
                  </div>
                </td>
              ) : null}
              {columns.map((column, i) => {
                const Cell = column.rowHeader ? 'th' : 'td';
                return (
                  <Cell
                    key={column.header}
                    scope={column.rowHeader ? 'row' : undefined}
                    className={
                      [i === primary && 'cell-primary', column.numeric && 'col-numeric']
                        .filter(Boolean)
                        .join(' ') || undefined
                    }
                    data-label={t(column.header)}
                  >
                    <div className="cell-value">{column.cell(row, t)}</div>
                  </Cell>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The table view of every staff list: the filters (a slot the page fills), the list frame
 * (progress, empty, error with retry, count and pager) and the table of the list machine's rows.
 * `defaultSort` is what the API does when the URL names no sort; without it no header sorts.
 */
export function DataTable<Row extends { id: string }>({
  actorRef,
  columns,
  label,
  emptyText,
  filters,
  defaultSort,
  selection,
}: {
  actorRef: ListActor;
  columns: readonly Column<Row>[];
  /** Accessible name of the results region and caption of the table. */
  label: string;
  emptyText: string;
  /** The filter form and what belongs to it (hints), shown above the results. */
  filters?: ReactNode;
  defaultSort?: SortState;
  /** A checkbox column for selecting rows (batch actions); without it, none. */
  selection?: RowSelection<Row> | undefined;
}) {
  const rows = useSelector(actorRef, (s) => rowsOf<Row>(s.context));
  const sort = useSelector(
    actorRef,
    (s): SortState | undefined => {
      if (!defaultSort) return undefined;
      const { by, order } = s.context.sortKeys;
      const shown = s.context.query.filters[order];
      return {
        by: by ? (s.context.query.filters[by] ?? defaultSort.by) : undefined,
        order: shown === 'asc' || shown === 'desc' ? shown : defaultSort.order,
      };
    },
    (a, b) => a?.by === b?.by && a?.order === b?.order,
  );
  return (
    <>
      {filters}
      <ListFrame actorRef={actorRef} label={label} emptyText={emptyText}>
        <Table
          columns={columns}
          rows={rows}
          caption={label}
          sort={sort}
          onSort={(next) => actorRef.send({ type: 'list.sort', by: next.by, order: next.order })}
          selection={selection}
        />
      </ListFrame>
    </>
  );
}
