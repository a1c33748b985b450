import { useTranslation } from 'react-i18next';
import { errorKey } from '../../staff/ListParts';
import type { EditorState } from './types';

/** "Gespeichert", "Speichert…", "Offline – wird erneut versucht" … as a polite live region. */
export function SaveState({ state, retry }: { state: EditorState; retry: () => void }) {
  const { t } = useTranslation('clinical');
  const { t: ts } = useTranslation('staff');
  const text = state.hasTag('readOnly')
    ? t('save.locked')
    : state.hasTag('absent')
      ? t('save.absent')
      : state.hasTag('saving')
        ? t('save.saving')
        : state.hasTag('offline')
          ? t('save.offline')
          : state.hasTag('conflict')
            ? t('save.conflict')
            : state.hasTag('error')
              ? t('save.failed', { reason: ts(errorKey(state.context.error)) })
              : state.hasTag('unsaved')
                ? t('save.unsaved')
                : t('save.saved');
  return (
    <span className="save-state no-print" role="status" aria-live="polite">
      {text}
      {state.can({ type: 'editor.retry' }) && !state.hasTag('conflict') ? (
        <>
          {' '}
          <button type="button" className="button button-small" onClick={retry}>
            {t('editor.retry')}
          </button>
        </>
      ) : null}
    </span>
  );
}
