import type { ReactNode } from 'react';
import { ModalDialog } from '../parts/ModalDialog';

/**
 * The appointment in a modal dialog (src/views/parts/ModalDialog.tsx): Escape asks the owner
 * to close it, and on close the focus goes back to the appointment in the grid.
 */
export function AppointmentDialog(props: {
  labelledBy: string;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <ModalDialog
      labelledBy={props.labelledBy}
      onCancel={props.onClose}
      className="detail-panel appointment-detail appointment-dialog"
    >
      {props.children}
    </ModalDialog>
  );
}
