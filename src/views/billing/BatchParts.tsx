import { useSelector } from '@xstate/react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import {
  allowedActions,
  selectionSum,
  type batchActionMachine,
} from '../../machines/batch-action.machine';
import type { BillableItem } from '../../machines/actors/staff/billing';
import type { BillingAction } from '../../../shared/billing-transitions';
import { useModalDialog } from '../parts/modal-dialog';
import { errorKey } from '../staff/ListParts';
import { formatDate, formatEuro, formatNumber } from '../staff/format';
import { ACTION_LABELS, CONFLICT_REASONS, DONE_LABELS, STATUS_LABELS, personName } from './columns';

/** The /billing batch views: the bar over the table, the question, the result and the conflict. */

export type BatchActor = ActorRefFrom<typeof batchActionMachine>;

const label = (action: string | null) => ACTION_LABELS[(action ?? 'approve') as BillingAction];
const statusLabel = (status: string) => STATUS_LABELS[status as BillableItem['status']] ?? status;

/**
 * What is selected (count and sum), "select all matches", and the actions the whole
 * selection allows. `matchCount` is what the list counts under the current filter.
 */
export function SelectionBar({ actorRef, matchCount, pageRows }: { actorRef: BatchActor; matchCount: number; pageRows: number }) {
  const { t } = useTranslation('staff');
  const state = useSelector(actorRef, (s) => s);
  const { selected, scope, matchingCount } = state.context;
  const actions = allowedActions(state.context);
  const sum = selectionSum(state.context) ?? 0;
  const count = selected.length;
  const loading = state.matches('loadingMatching');
  return (
    <section className="batch-bar" aria-label={t('billingItems.selection.actions')}>
      <p role="status">
        {count === 0
          ? t('billingItems.selection.none')
          : t('billingItems.selection.summary', { count, formatted: formatNumber(count), sum: formatEuro(sum) })}
        {scope === 'matching' && matchingCount > count
          ? ` ${t('billingItems.selection.capped', { formatted: formatNumber(matchingCount) })}`
          : null}
        {loading ? ` ${t('billingItems.selection.loadingMatching')}` : null}
      </p>
      {state.matches('matchingFailed') ? (
        <div className="notice notice-error" role="alert">
          <p>
            {t('billingItems.selection.matchingFailed')} {t(errorKey(state.context.error))}
          </p>
          <button type="button" className="button" onClick={() => actorRef.send({ type: 'batch.retry' })}>
            {t('list.retry')}
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
              ? t('billingItems.selection.allMatchingCapped')
              : t('billingItems.selection.allMatching', { formatted: formatNumber(matchCount) })}
          </button>
        ) : null}
        {count > 0 ? (
          <button type="button" className="button" onClick={() => actorRef.send({ type: 'batch.clear' })}>
            {t('billingItems.selection.clear')}
          </button>
        ) : null}
        {actions.map((action) => (
          <button
            key={action}
            type="button"
            className={action === 'delete' || action === 'cancel' ? 'button button-danger' : 'button button-primary'}
            disabled={!state.can({ type: 'batch.choose', action })}
            onClick={() => actorRef.send({ type: 'batch.choose', action })}
          >
            {t(label(action))}
          </button>
        ))}
      </div>
      {count > 0 && actions.length === 0 ? <p className="field-hint">{t('billingItems.selection.noAction')}</p> : null}
    </section>
  );
}

/** "42 Positionen freigegeben", until the next selection. */
export function BatchResult({ actorRef }: { actorRef: BatchActor }) {
  const { t } = useTranslation('staff');
  const result = useSelector(actorRef, (s) => (s.hasTag('done') ? s.context.result : null));
  if (!result) return null;
  return (
    <div className="notice notice-success batch-result">
      <p role="status">
        {t(DONE_LABELS[result.action as BillingAction], { count: result.count, formatted: formatNumber(result.count) })}
      </p>
      <button type="button" className="button" onClick={() => actorRef.send({ type: 'batch.back' })}>
        {t('billingItems.done.close')}
      </button>
    </div>
  );
}

/**
 * The modal question (count and sum), its progress and network failure with retry, and the
 * conflict: each refused item with its status and reason, and "deselect them and retry".
 * `rows` are the items on screen, to name the refused ones.
 */
export function BatchDialog({ actorRef, rows }: { actorRef: BatchActor; rows: readonly BillableItem[] }) {
  const { t } = useTranslation('staff');
  const state = useSelector(actorRef, (s) => s);
  const id = useId();
  const ref = useModalDialog(state.hasTag('open'));
  const { selected, action, conflicts } = state.context;
  const count = selected.length;
  const sum = formatEuro(selectionSum(state.context) ?? 0);
  const busy = state.hasTag('busy');
  const back = () => actorRef.send({ type: 'batch.back' });
  const refused = new Set(conflicts.map((c) => c.id));
  const rest = selected.filter((s) => !refused.has(s.id)).length;
  return (
    <dialog
      ref={ref}
      className="batch-dialog"
      aria-labelledby={`${id}-title`}
      onCancel={(e) => {
        e.preventDefault();
        if (!busy) back();
      }}
    >
      {state.hasTag('conflict') ? (
        <>
          <h2 id={`${id}-title`}>{t('billingItems.conflict.title')}</h2>
          <p>{t('billingItems.conflict.intro', { count: conflicts.length, formatted: formatNumber(conflicts.length) })}</p>
          <ul className="conflict-list">
            {conflicts.map((c) => {
              const row = rows.find((r) => r.id === c.id);
              return (
                <li key={c.id}>
                  <strong>
                    {row
                      ? `${personName(row.client)}, ${formatDate(row.serviceDate)}, ${formatEuro(row.amountCents)}`
                      : t('billingItems.conflict.unknownItem', { id: c.id.slice(0, 8) })}
                  </strong>
                  {' – '}
                  {c.status ? `${t('billingItems.conflict.now', { status: t(statusLabel(c.status)) })}, ` : null}
                  {t(CONFLICT_REASONS[c.code] ?? CONFLICT_REASONS.invalid_transition!)}
                </li>
              );
            })}
          </ul>
          <div className="form-actions">
            <button
              type="button"
              className="button button-primary"
              onClick={() => actorRef.send({ type: 'batch.deselectConflicts' })}
            >
              {rest > 0
                ? t('billingItems.conflict.retry', { count: rest, formatted: formatNumber(rest) })
                : t('billingItems.conflict.deselectOnly')}
            </button>
            <button type="button" className="button" onClick={back}>
              {t('billingItems.conflict.back')}
            </button>
          </div>
        </>
      ) : (
        <>
          <h2 id={`${id}-title`}>{t('billingItems.confirm.title')}</h2>
          <p>
            <strong>
              {t('billingItems.confirm.question', {
                action: t(label(action)),
                count,
                formatted: formatNumber(count),
                sum,
              })}
            </strong>
          </p>
          <p>{t('billingItems.confirm.allOrNothing')}</p>
          {state.hasTag('error') ? (
            <p className="notice notice-error" role="alert">
              {t(errorKey(state.context.error))} {t('billingItems.confirm.failed')}
            </p>
          ) : null}
          <div className="form-actions">
            {state.hasTag('error') ? (
              <button type="button" className="button button-primary" onClick={() => actorRef.send({ type: 'batch.retry' })}>
                {t('billingItems.confirm.retry')}
              </button>
            ) : (
              <button
                type="button"
                className={action === 'delete' || action === 'cancel' ? 'button button-danger' : 'button button-primary'}
                disabled={busy}
                aria-busy={busy}
                onClick={() => actorRef.send({ type: 'batch.confirm' })}
              >
                {busy ? t('billingItems.confirm.running') : t(label(action))}
              </button>
            )}
            <button type="button" className="button" disabled={busy} onClick={back}>
              {t('billingItems.confirm.back')}
            </button>
          </div>
        </>
      )}
    </dialog>
  );
}
