import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A modal `<dialog>` where the person is looking: while `open` it is shown with the browser's
 * `showModal` (focus inside, the page behind inert), Escape only asks the owner to close it
 * (`onCancel`; the machine decides), and on close the focus goes back to what opened it.
 * Mount it when needed (open by default) or keep it mounted and switch `open`.
 */
export function ModalDialog(props: {
  labelledBy: string;
  onCancel: () => void;
  open?: boolean;
  /** Something is under way inside (announced to screen readers). */
  busy?: boolean;
  className?: string;
  children: ReactNode;
}) {
  const { open = true } = props;
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !open) return undefined;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    // jsdom has no showModal; there the dialog is simply open.
    if (!dialog.open) {
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
    }
    return () => {
      if (dialog.open) {
        if (typeof dialog.close === 'function') dialog.close();
        else dialog.removeAttribute('open');
      }
      if (opener?.isConnected) opener.focus();
    };
  }, [open]);
  return (
    <dialog
      ref={ref}
      className={props.className}
      aria-labelledby={props.labelledBy}
      aria-busy={props.busy}
      onCancel={(e) => {
        e.preventDefault();
        props.onCancel();
      }}
    >
      {props.children}
    </dialog>
  );
}
