import { useSelector } from '@xstate/react';
import { useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import {
  allowedActions,
  selectionSum,
  type BatchItem,
  type batchActionMachine,
} from '../../machines/batch-action.machine';
import type { RowSelection } from '../staff/DataTable';
import { errorKey, type ListActor } from '../staff/ListParts';
import { formatEuro, formatNumber } from '../staff/format';
import { ConfirmActions } from './ConfirmActions';
import { ModalDialog } from './ModalDialog';
import './batch.css';

/**
 * The views of the batch action machine (src/machines/batch-action.machine.ts), for any screen
 * that acts on many records at once (/billing, /review): the bar over the table, the result
 * line, and the modal question with its progress, network failure and conflict.
 *
 * The words come from the screen (`BatchWording`): a key prefix under which the screen's
 * namespace holds `selection.*`, `done.close`, `conflict.*` and `confirm.*` (the shape of
 * `staff:billingItems`), and the keys of its actions, results, statuses and refusal reasons.
 */

export type BatchActor = ActorRefFrom<typeof batchActionMachine>;

export interface BatchWording {
  /** `ns:prefix` holding the parts' texts, e.g. `staff:billingItems`. */
  prefix: string;
  /** Key of an action's button label. */
  action: (action: string) => string;
  /** Key of the result line of an action, with `count`/`formatted` plural forms. */
  done: (action: string) => string;
  /** Key of a status's label (the status a refused record has now). */
  status: (status: string) => string;
  /** Key of a refusal reason (`not_found`, `invalid_transition` …). */
  reason: (code: string) => string;
  /** How the conflict names a refused record on screen; null when it is not (e.g. another page). */
  describe: (id: string) => string | null;
  /** Actions that destroy or revoke get the danger style. */
  danger?: (action: string) => boolean;
}

/**
 * The table's row boxes (`DataTable`'s `selection`), kept by the batch machine: `asItem` says
 * what of a row the batch needs (id, status, amount), `nameOf` the client and date its box's
 * label (`selection.row` of the wording) names. None when the person may not act. Both
 * functions are the screen's constants, so the selection is rebuilt only when it changes.
 */
export function useBatchRowSelection<Row>(
  batchRef: BatchActor,
  enabled: boolean,
  { prefix }: Pick<BatchWording, 'prefix'>,
  asItem: (row: Row) => BatchItem,
  nameOf: (row: Row) => { client: string; date: string },
): RowSelection<Row> | undefined {
  const { t } = useTranslation();
  const selected = useSelector(batchRef, (s) => s.context.selected);
  const busy = useSelector(batchRef, (s) => s.hasTag('busy') || s.hasTag('open'));
  return useMemo(() => {
    if (!enabled) return undefined;
    const ids = new Set(selected.map((s) => s.id));
    return {
      isSelected: (row) => ids.has(asItem(row).id),
      toggle: (row) => batchRef.send({ type: 'batch.toggle', item: asItem(row) }),
      togglePage: (rows, on) =>
        batchRef.send({ type: 'batch.page', items: rows.map(asItem), selected: on }),
      rowLabel: (row) => t(`${prefix}.selection.row`, nameOf(row)),
      pageLabel: t(`${prefix}.selection.page`),
      header: t(`${prefix}.selection.select`),
      disabled: busy,
    };
  }, [enabled, selected, busy, batchRef, asItem, nameOf, prefix, t]);
}

const actionClass = (w: BatchWording, action: string | null) =>
  action !== null && w.danger?.(action) ? 'button button-danger' : 'button button-primary';

/**
 * What is selected (count, and the sum where records carry amounts), "select all matches",
 * and the actions the whole selection allows. `matchCount` is what the list counts under the
 * current filter; "select all matches" shows when it exceeds the rows on the page.
 */
export function SelectionBar({
  actorRef,
  wording: w,
  matchCount,
  pageRows,
}: {
  actorRef: BatchActor;
  wording: BatchWording;
  matchCount: number;
  pageRows: number;
}) {
  const { t } = useTranslation();
  const k = (key: string) => `${w.prefix}.${key}`;
  const state = useSelector(actorRef, (s) => s);
  const { selected, scope, matchingCount } = state.context;
  const actions = allowedActions(state.context);
  const sum = selectionSum(state.context);
  const count = selected.length;
  const loading = state.hasTag('loadingMatching');
  return (
    <section className="batch-bar" aria-label={t(k('selection.actions'))}>
      <p role="status">
        {count === 0
          ? t(k('selection.none'))
          : t(k('selection.summary'), {
              count,
              formatted: formatNumber(count),
              sum: formatEuro(sum ?? 0),
            })}
        {scope === 'matching' && matchingCount > count
          ? ` ${t(k('selection.capped'), { formatted: formatNumber(matchingCount) })}`
          : null}
        {loading ? ` ${t(k('selection.loadingMatching'))}` : null}
      </p>
      {state.hasTag('matchingFailed') ? (
        <div className="notice notice-error" role="alert">
          <p>
            {t(k('selection.matchingFailed'))} {t(errorKey(state.context.error))}
          </p>
          <button
            type="button"
            className="button"
            onClick={() => actorRef.send({ type: 'batch.retry' })}
          >
            {t('staff:list.retry')}
          </button>
        </div>
      ) : null}
      <div className="form-actions">
        {matchCount > pageRows && !(scope === 'matching' && count > 0) ? (
          <button
            type="button"
            className="button"
            disabled={loading}
            onClick={() => actorRef.send({ type: 'batch.selectMatching' })}
          >
            {matchCount > 1000
              ? t(k('selection.allMatchingCapped'))
              : t(k('selection.allMatching'), { formatted: formatNumber(matchCount) })}
          </button>
        ) : null}
        {count > 0 ? (
          <button
            type="button"
            className="button"
            onClick={() => actorRef.send({ type: 'batch.clear' })}
          >
            {t(k('selection.clear'))}
          </button>
        ) : null}
        {actions.map((action) => (
          <button
            key={action}
            type="button"
            className={actionClass(w, action)}
            disabled={!state.can({ type: 'batch.choose', action })}
            onClick={() => actorRef.send({ type: 'batch.choose', action })}
          >
            {t(w.action(action))}
          </button>
        ))}
      </div>
      {count > 0 && actions.length === 0 ? (
        <p className="field-hint">{t(k('selection.noAction'))}</p>
      ) : null}
    </section>
  );
}

/**
 * Over a list's table: the last batch's result and the selection bar, which counts the list's
 * matches under its current filter and the rows on its page.
 */
export function ListBatchBar({
  actorRef,
  wording,
  listRef,
}: {
  actorRef: BatchActor;
  wording: BatchWording;
  listRef: ListActor;
}) {
  const matchCount = useSelector(listRef, (s) => (s.context.shownQuery ? s.context.itemCount : 0));
  const pageRows = useSelector(listRef, (s) => s.context.rows.length);
  return (
    <>
      <BatchResult actorRef={actorRef} wording={wording} />
      <SelectionBar
        actorRef={actorRef}
        wording={wording}
        matchCount={matchCount}
        pageRows={pageRows}
      />
    </>
  );
}

/** "42 Positionen freigegeben", until the next selection. */
export function BatchResult({
  actorRef,
  wording: w,
}: {
  actorRef: BatchActor;
  wording: BatchWording;
}) {
  const { t } = useTranslation();
  const result = useSelector(actorRef, (s) => (s.hasTag('done') ? s.context.result : null));
  if (!result) return null;
  return (
    <div className="notice notice-success batch-result">
      <p role="status">
        {t(w.done(result.action), { count: result.count, formatted: formatNumber(result.count) })}
      </p>
      <button
        type="button"
        className="button"
        onClick={() => actorRef.send({ type: 'batch.back' })}
      >
        {t(`${w.prefix}.done.close`)}
      </button>
    </div>
  );
}

/**
 * The modal question (count, and sum where there is one), its progress and network failure
 * with retry (same batch, same Idempotency-Key), and the conflict: each refused record with
 * its status and reason, and "deselect them and send the rest".
 */
export function BatchDialog({
  actorRef,
  wording: w,
}: {
  actorRef: BatchActor;
  wording: BatchWording;
}) {
  const { t } = useTranslation();
  const k = (key: string) => `${w.prefix}.${key}`;
  const state = useSelector(actorRef, (s) => s);
  const id = useId();
  const { selected, action, conflicts } = state.context;
  const count = selected.length;
  const sum = selectionSum(state.context);
  const busy = state.hasTag('busy');
  const back = () => actorRef.send({ type: 'batch.back' });
  const refused = new Set(conflicts.map((c) => c.id));
  const rest = selected.filter((s) => !refused.has(s.id)).length;
  return (
    <ModalDialog
      open={state.hasTag('open')}
      className="batch-dialog"
      labelledBy={`${id}-title`}
      onCancel={() => {
        if (!busy) back();
      }}
    >
      {state.hasTag('conflict') ? (
        <>
          <h2 id={`${id}-title`}>{t(k('conflict.title'))}</h2>
          <p>
            {t(k('conflict.intro'), {
              count: conflicts.length,
              formatted: formatNumber(conflicts.length),
            })}
          </p>
          <ul className="conflict-list">
            {conflicts.map((c) => (
              <li key={c.id}>
                <strong>
                  {w.describe(c.id) ?? t(k('conflict.unknownItem'), { id: c.id.slice(0, 8) })}
                </strong>
                {' – '}
                {c.status ? `${t(k('conflict.now'), { status: t(w.status(c.status)) })}, ` : null}
                {t(w.reason(c.code))}
              </li>
            ))}
          </ul>
          <div className="form-actions">
            <button
              type="button"
              className="button button-primary"
              onClick={() => actorRef.send({ type: 'batch.deselectConflicts' })}
            >
              {rest > 0
                ? t(k('conflict.retry'), { count: rest, formatted: formatNumber(rest) })
                : t(k('conflict.deselectOnly'))}
            </button>
            <button type="button" className="button" onClick={back}>
              {t(k('conflict.back'))}
            </button>
          </div>
        </>
      ) : (
        <>
          <h2 id={`${id}-title`}>{t(k('confirm.title'))}</h2>
          <p>
            <strong>
              {t(k('confirm.question'), {
                action: action ? t(w.action(action)) : '',
                count,
                formatted: formatNumber(count),
                sum: formatEuro(sum ?? 0),
              })}
            </strong>
          </p>
          <p>{t(k('confirm.allOrNothing'))}</p>
          {state.hasTag('error') ? (
            <p className="notice notice-error" role="alert">
              {t(errorKey(state.context.error))} {t(k('confirm.failed'))}
            </p>
          ) : null}
          <ConfirmActions
            busy={busy}
            label={action ? t(w.action(action)) : null}
            busyLabel={t(k('confirm.running'))}
            className={actionClass(w, action)}
            onConfirm={() => actorRef.send({ type: 'batch.confirm' })}
            backLabel={t(k('confirm.back'))}
            onBack={back}
            retry={
              state.hasTag('error')
                ? {
                    label: t(k('confirm.retry')),
                    className: 'button button-primary',
                    onRetry: () => actorRef.send({ type: 'batch.retry' }),
                  }
                : null
            }
          />
        </>
      )}
    </ModalDialog>
  );
}
