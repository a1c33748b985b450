import { useSelector } from '@xstate/react';
import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { confirmActionMachine } from '../../machines/confirm-action.machine';
import { ConfirmActions } from '../parts/ConfirmActions';
import { errorKey } from '../staff/ListParts';

export type ConfirmActor = ActorRefFrom<typeof confirmActionMachine>;

/**
 * The open question of a confirm-action machine: the question, the confirm and abort buttons,
 * progress while it runs, and the German error with retry. Renders nothing while idle.
 */
export function ConfirmActionPanel({
  actorRef,
  question,
  confirmLabel,
  danger = true,
  children,
}: {
  actorRef: ConfirmActor;
  question: string;
  confirmLabel: string;
  danger?: boolean;
  /** What the action does, under the question. */
  children?: ReactNode;
}) {
  const { t } = useTranslation('staff');
  const state = useSelector(actorRef, (s) => s);
  const id = useId();
  if (!state.hasTag('open')) return null;
  const failed = state.hasTag('error');
  return (
    <div className="confirm-box" role="alertdialog" aria-labelledby={`${id}-question`}>
      <p id={`${id}-question`}>
        <strong>{question}</strong>
      </p>
      {children}
      {failed ? (
        <p className="notice notice-error" role="alert">
          {t(errorKey(state.context.error))}
        </p>
      ) : null}
      <ConfirmActions
        busy={state.hasTag('busy')}
        label={confirmLabel}
        busyLabel={t('confirmAction.running')}
        className={danger ? 'button button-danger' : 'button button-primary'}
        onConfirm={() => actorRef.send({ type: 'action.confirm' })}
        backLabel={t('confirmAction.abort')}
        onBack={() => actorRef.send({ type: 'action.abort' })}
        retry={
          failed
            ? { label: t('list.retry'), onRetry: () => actorRef.send({ type: 'action.retry' }) }
            : null
        }
      />
    </div>
  );
}

/** The words of a record's (de)activation, each for the way it goes. */
export interface ActiveWording {
  /** The button: deactivate while active, (re)activate while inactive. */
  deactivate: string;
  activate: string;
  deactivateQuestion: string;
  activateQuestion: string;
  deactivateConfirm: string;
  activateConfirm: string;
}

/**
 * The button that asks to flip a record's `active` flag (coach, user account); locked while
 * the question is open. The question itself is `ActiveQuestion`.
 */
export function ActiveToggleButton({
  actorRef,
  record,
  wording,
}: {
  actorRef: ConfirmActor;
  record: { id: string; active: boolean };
  wording: ActiveWording;
}) {
  const open = useSelector(actorRef, (s) => s.hasTag('open'));
  return (
    <button
      type="button"
      className="button"
      disabled={open}
      onClick={() =>
        actorRef.send({ type: 'action.ask', payload: { id: record.id, active: !record.active } })
      }
    >
      {record.active ? wording.deactivate : wording.activate}
    </button>
  );
}

/** The open question of `ActiveToggleButton`: deactivating is the dangerous way. */
export function ActiveQuestion({
  actorRef,
  wording,
}: {
  actorRef: ConfirmActor;
  wording: ActiveWording;
}) {
  const asking = useSelector(actorRef, (s) => s.context.payload);
  if (!asking) return null;
  const deactivating = asking.active === false;
  return (
    <ConfirmActionPanel
      actorRef={actorRef}
      danger={deactivating}
      question={deactivating ? wording.deactivateQuestion : wording.activateQuestion}
      confirmLabel={deactivating ? wording.deactivateConfirm : wording.activateConfirm}
    />
  );
}
