import { useTranslation } from 'react-i18next';
import { ModalDialog } from '../../parts/ModalDialog';
import type { Send } from './types';

/** "Seite verlassen?" while an in-app link waits (the machine's `leaving`); Escape stays. */
export function LeaveQuestion({ open, send }: { open: boolean; send: Send }) {
  const { t } = useTranslation('clinical');
  const stay = () => send({ type: 'leave.stay' });
  return (
    <ModalDialog
      open={open}
      className="batch-dialog no-print"
      labelledBy="leave-question"
      onCancel={stay}
    >
      {open ? (
        <>
          <h2 id="leave-question">{t('leave.title')}</h2>
          <p>{t('editor.leaveQuestion')}</p>
          <div className="form-actions">
            <button type="button" className="button button-primary" onClick={stay}>
              {t('leave.stay')}
            </button>
            <button
              type="button"
              className="button"
              onClick={() => send({ type: 'leave.confirm' })}
            >
              {t('leave.confirm')}
            </button>
          </div>
        </>
      ) : null}
    </ModalDialog>
  );
}
