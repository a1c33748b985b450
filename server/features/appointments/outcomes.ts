import type { Tx } from '../../db/client';

/**
 * What happened to an appointment that other features follow in the same transaction:
 * cancelled, marked a no-show, or a no-show taken back. The appointments feature announces
 * it; a feature that reacts (clinical documentation cancels the summary draft) subscribes
 * through this module, so the appointments feature needs to know nothing of it.
 */
export interface AppointmentOutcome {
  appointmentId: string;
  change: 'cancelled' | 'no_show' | 'no_show_undone';
  at: Date;
}

export type OutcomeListener = (tx: Tx, outcome: AppointmentOutcome) => Promise<void>;

const listeners = new Set<OutcomeListener>();

/** Subscribes `listener`; it runs inside the change's transaction, so it fails with it. */
export function onAppointmentOutcome(listener: OutcomeListener) {
  listeners.add(listener);
}

export async function announceOutcome(tx: Tx, outcome: AppointmentOutcome) {
  for (const listener of listeners) await listener(tx, outcome);
}
