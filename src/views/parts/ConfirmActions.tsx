import type { ReactNode } from 'react';
import { BusyButton } from './BusyButton';

/**
 * A confirming step's two buttons: the one that runs the request and the one that steps back.
 * Stepping back is locked while the request runs, so its answer cannot land on a step the
 * person has already left.
 */
export function ConfirmActions({
  busy,
  label,
  busyLabel,
  className,
  onConfirm,
  backLabel,
  onBack,
}: {
  busy: boolean;
  label: ReactNode;
  busyLabel?: ReactNode;
  /** The confirming button's classes (a destructive step's is `button button-danger`). */
  className?: string;
  onConfirm: () => void;
  backLabel: ReactNode;
  onBack: () => void;
}) {
  return (
    <div className="form-actions">
      <BusyButton
        busy={busy}
        label={label}
        busyLabel={busyLabel}
        className={className}
        onClick={onConfirm}
      />
      <button type="button" className="button" disabled={busy} onClick={onBack}>
        {backLabel}
      </button>
    </div>
  );
}
