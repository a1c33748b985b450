import type { ReactNode } from 'react';

/**
 * The main button of a step that runs a request: disabled and marked `aria-busy` while it
 * runs, with its progress text then (`busyLabel`, if the step has one).
 */
export function BusyButton({
  busy,
  label,
  busyLabel,
  type = 'button',
  className = 'button button-primary',
  disabled = busy,
  onClick,
}: {
  busy: boolean;
  label: ReactNode;
  busyLabel?: ReactNode;
  type?: 'button' | 'submit';
  className?: string;
  /** Defaults to `busy`; a form may stay locked longer (while it loads, say). */
  disabled?: boolean;
  onClick?: () => void;
}) {
  return (
    <button
      type={type}
      className={className}
      disabled={disabled}
      aria-busy={busy}
      onClick={onClick}
    >
      {busy && busyLabel !== undefined ? busyLabel : label}
    </button>
  );
}
