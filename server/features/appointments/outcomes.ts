import { eventKind } from '../../db/transaction-events';

/**
 * What happened to an appointment that other features follow in the same transaction:
 * cancelled, marked a no-show, or a no-show taken back. The appointments feature announces
 * it on `deps.events`; a feature that reacts (clinical documentation cancels the summary
 * draft) is subscribed where the app is assembled, so the appointments feature needs to
 * know nothing of it.
 */
export interface AppointmentOutcome {
  appointmentId: string;
  change: 'cancelled' | 'no_show' | 'no_show_undone';
  at: Date;
}

export const appointmentOutcome = eventKind<AppointmentOutcome>('appointment.outcome');
