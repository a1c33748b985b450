import type { ReactNode } from 'react';
import { BusyButton } from './BusyButton';

/**
 * A confirming step's two buttons: the one that runs the request and the one that steps back.
 * Stepping back is locked while the request runs, so its answer cannot land on a step the
 * person has already left. After a failure (`retry` given) the confirming button gives way to
 * the retry, which sends the same request again.
 */
export function ConfirmActions({
  busy,
  label,
  busyLabel,
  className,
  onConfirm,
  backLabel,
  onBack,
  retry,
}: {
  busy: boolean;
  label: ReactNode;
  busyLabel?: ReactNode;
  /** The confirming button's classes (a destructive step's is `button button-danger`). */
  className?: string;
  onConfirm: () => void;
  backLabel: ReactNode;
  onBack: () => void;
  /** Shown instead of the confirming button while the request has failed. */
  retry?: { label: ReactNode; onRetry: () => void; className?: string } | null;
}) {
  return (
    <div className="form-actions">
      {retry ? (
        <button type="button" className={retry.className ?? 'button'} onClick={retry.onRetry}>
          {retry.label}
        </button>
      ) : (
        <BusyButton
          busy={busy}
          label={label}
          busyLabel={busyLabel}
          className={className}
          onClick={onConfirm}
        />
      )}
      <button type="button" className="button" disabled={busy} onClick={onBack}>
        {backLabel}
      </button>
    </div>
  );
}
