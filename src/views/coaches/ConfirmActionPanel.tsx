import { useSelector } from '@xstate/react';
import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { confirmActionMachine } from '../../machines/confirm-action.machine';
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
  const running = state.hasTag('busy');
  return (
    <div className="confirm-box" role="alertdialog" aria-labelledby={`${id}-question`}>
      <p id={`${id}-question`}>
        <strong>{question}</strong>
      </p>
      {children}
      {state.hasTag('error') ? (
        <p className="notice notice-error" role="alert">
          {t(errorKey(state.context.error))}
        </p>
      ) : null}
      <div className="form-actions">
        {state.hasTag('error') ? (
          <button
            type="button"
            className="button"
            onClick={() => actorRef.send({ type: 'action.retry' })}
          >
            {t('list.retry')}
          </button>
        ) : (
          <button
            type="button"
            className={danger ? 'button button-danger' : 'button button-primary'}
            disabled={running}
            aria-busy={running}
            onClick={() => actorRef.send({ type: 'action.confirm' })}
          >
            {running ? t('confirmAction.running') : confirmLabel}
          </button>
        )}
        <button
          type="button"
          className="button"
          disabled={running}
          onClick={() => actorRef.send({ type: 'action.abort' })}
        >
          {t('confirmAction.abort')}
        </button>
      </div>
    </div>
  );
}
