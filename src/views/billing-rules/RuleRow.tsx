import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { BillingRule } from '../../machines/actors/staff/billing-rules';
import type { RulesActor } from '../../machines/billing-rules.machine';
import { criteriaText, outcomeText } from './rule-text';

/** One rule of the ordered list: drag handle, up/down, edit, delete and its delete question. */
export function RuleRow({
  actorRef,
  rule,
  index,
  count,
  dragging,
  onMove,
  onDragStart,
  onDragEnd,
  onDrop,
}: {
  actorRef: RulesActor;
  rule: BillingRule;
  index: number;
  count: number;
  dragging: boolean;
  onMove: (id: string, to: number, via: 'up' | 'down') => void;
  onDragStart: () => void;
  onDragEnd: () => void;
  onDrop: () => void;
}) {
  const { t } = useTranslation(['billingRules', 'staff']);
  const canUp = useSelector(actorRef, (s) =>
    s.can({ type: 'rules.move', id: rule.id, to: index - 1 }),
  );
  const canDown = useSelector(actorRef, (s) =>
    s.can({ type: 'rules.move', id: rule.id, to: index + 1 }),
  );
  const canDelete = useSelector(actorRef, (s) => s.can({ type: 'rule.delete', id: rule.id }));
  const asked = useSelector(
    actorRef,
    (s) => s.context.deleting?.id === rule.id && s.hasTag('asking'),
  );
  const draggable = canUp || canDown;
  const nameId = `rule-${rule.id}-name`;

  return (
    <li
      className={`rule-row${dragging ? ' is-dragging' : ''}${rule.active ? '' : ' is-inactive'}`}
      data-rule-id={rule.id}
      draggable={draggable}
      onDragStart={(e) => {
        e.dataTransfer.effectAllowed = 'move';
        e.dataTransfer.setData('text/plain', rule.id);
        onDragStart();
      }}
      onDragEnd={onDragEnd}
      onDragOver={(e) => {
        e.preventDefault();
        e.dataTransfer.dropEffect = 'move';
      }}
      onDrop={(e) => {
        e.preventDefault();
        onDrop();
      }}
    >
      <div className="rule-main">
        <span className="rule-handle" aria-hidden="true" title={t('dragHint')}>
          ⋮⋮
        </span>
        <div className="rule-text">
          <p className="rule-name" id={nameId}>
            <span className="rule-position">{t('position', { position: index + 1 })}</span>{' '}
            <strong>{rule.name}</strong>{' '}
            {rule.active ? null : <span className="badge badge-cancelled">{t('inactive')}</span>}{' '}
            <span className="rule-version">{t('version', { version: rule.version })}</span>
          </p>
          <p className="rule-criteria">{criteriaText(t, rule)}</p>
          <p className="rule-outcome">
            {outcomeText(t, rule)} · „{rule.description}“
          </p>
        </div>
      </div>
      <div className="rule-actions">
        <button
          type="button"
          className="button"
          data-move="up"
          disabled={!canUp}
          aria-label={t('moveUpLabel', { name: rule.name })}
          onClick={() => onMove(rule.id, index - 1, 'up')}
        >
          {t('moveUp')}
        </button>
        <button
          type="button"
          className="button"
          data-move="down"
          disabled={!canDown || index === count - 1}
          aria-label={t('moveDownLabel', { name: rule.name })}
          onClick={() => onMove(rule.id, index + 1, 'down')}
        >
          {t('moveDown')}
        </button>
        <Link
          href={`/billing/rules/${rule.id}/edit`}
          className="button"
          aria-label={t('editLabel', { name: rule.name })}
        >
          {t('edit')}
        </Link>
        <button
          type="button"
          className="button"
          disabled={!canDelete}
          aria-label={t('deleteLabel', { name: rule.name })}
          onClick={() => actorRef.send({ type: 'rule.delete', id: rule.id })}
        >
          {t('delete')}
        </button>
      </div>
      {asked ? (
        <DeleteQuestion actorRef={actorRef} id={`rule-${rule.id}-delete`} name={rule.name} />
      ) : null}
    </li>
  );
}

function DeleteQuestion({
  actorRef,
  id,
  name,
}: {
  actorRef: RulesActor;
  id: string;
  name: string;
}) {
  const { t } = useTranslation(['billingRules', 'staff']);
  const running = useSelector(actorRef, (s) => s.hasTag('deleting'));
  const failed = useSelector(actorRef, (s) => s.context.deleteError);
  return (
    <div className="confirm-box" role="alertdialog" aria-labelledby={id}>
      <p id={id}>
        <strong>{t('deleteQuestion', { name })}</strong>
      </p>
      {failed ? (
        <p className="notice notice-error" role="alert">
          {failed.code === 'not_found' ? t('errors.notFound') : t('errors.delete')}
        </p>
      ) : null}
      <div className="form-actions">
        {failed ? (
          <button
            type="button"
            className="button"
            onClick={() => actorRef.send({ type: 'delete.retry' })}
          >
            {t('retry')}
          </button>
        ) : (
          <button
            type="button"
            className="button button-danger"
            disabled={running}
            aria-busy={running}
            onClick={() => actorRef.send({ type: 'delete.confirm' })}
          >
            {running ? t('deleteRunning') : t('deleteConfirm')}
          </button>
        )}
        <button
          type="button"
          className="button"
          disabled={running}
          onClick={() => actorRef.send({ type: 'delete.abort' })}
        >
          {t('abort')}
        </button>
      </div>
    </div>
  );
}
