/**
 * Where an appointment stands in time, the one rule both sides apply
 * (docs/decisions/0032-appointment-phase.md): the server refuses
 * what the screens do not offer. Cancelled wins over time; an appointment has ended at its end
 * instant.
 */
export type AppointmentPhase = 'cancelled' | 'upcoming' | 'underway' | 'ended';

export interface TimedAppointment {
  startDate: string;
  endDate: string;
  cancelledAt: string | Date | null;
}

export function appointmentPhase(a: TimedAppointment, nowMs: number): AppointmentPhase {
  if (a.cancelledAt !== null) return 'cancelled';
  if (Date.parse(a.endDate) <= nowMs) return 'ended';
  if (Date.parse(a.startDate) <= nowMs) return 'underway';
  return 'upcoming';
}

/** Cancelling and sending the invitations again: until the end. */
export const mayCancelOrInvite = (phase: AppointmentPhase) =>
  phase === 'upcoming' || phase === 'underway';

/** Marking a no-show: once it has started, unless cancelled. */
export const mayMarkNoShow = (phase: AppointmentPhase) => phase === 'underway' || phase === 'ended';
