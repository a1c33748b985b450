import { useSelector } from '@xstate/react';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppServices } from '../services';
import { TOAST_SETTINGS, visibleToasts, type Toast } from '../toasts';

/** The newest three toasts, bottom right (the specification's constants and limits). */
export function Toaster() {
  const { t } = useTranslation('common');
  const { toasts } = useAppServices();
  const shown = useSelector(toasts, (s) => visibleToasts(s.context.toasts));
  return (
    <section
      className="toaster"
      aria-label={t('toasts.label')}
      style={{ width: TOAST_SETTINGS.widthPx, gap: TOAST_SETTINGS.gapPx }}
    >
      {shown.map((toast) => (
        <ToastItem
          key={toast.id}
          toast={toast}
          onDismiss={() => toasts.send({ type: 'dismiss', id: toast.id })}
        />
      ))}
    </section>
  );
}

function ToastItem({ toast, onDismiss }: { toast: Toast; onDismiss: () => void }) {
  const { t } = useTranslation('common');
  const start = useRef<number | null>(null);
  return (
    <div
      className={`toast toast-${toast.kind}`}
      role={toast.kind === 'error' ? 'alert' : 'status'}
      data-kind={toast.kind}
      onPointerDown={(e) => {
        start.current = e.clientX;
      }}
      onPointerUp={(e) => {
        // A swipe sideways of at least 20 px dismisses the toast.
        if (
          start.current !== null &&
          Math.abs(e.clientX - start.current) >= TOAST_SETTINGS.swipeThresholdPx
        ) {
          onDismiss();
        }
        start.current = null;
      }}
    >
      <p>{t(toast.messageKey, toast.values)}</p>
      <button
        type="button"
        className="toast-close"
        aria-label={t('toasts.dismiss')}
        onClick={onDismiss}
      >
        ×
      </button>
    </div>
  );
}
