import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A modal dialog where the person is looking: it opens with the focus inside (the browser's
 * `showModal`), Escape asks the owner to close it, and on close the focus goes back to what
 * opened it (the appointment in the grid).
 */
export function AppointmentDialog(props: {
  labelledBy: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return undefined;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    // jsdom has no showModal; there the dialog is simply open.
    if (typeof dialog.showModal === 'function') dialog.showModal();
    else dialog.setAttribute('open', '');
    return () => {
      if (dialog.open && typeof dialog.close === 'function') dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className="detail-panel appointment-detail appointment-dialog"
      aria-labelledby={props.labelledBy}
      // The machine decides when the dialog goes: Escape only asks.
      onCancel={(e) => {
        e.preventDefault();
        props.onClose();
      }}
    >
      {props.children}
    </dialog>
  );
}
