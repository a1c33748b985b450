import type { BookingKind } from '../../machines/appointment-booking.machine';
import { todayInBerlin } from '../../../shared/time';
import { wireBooking } from '../../machines/wiring/booking';
import { useSchedulingSession } from '../calendar/scheduling-session';
import { useRouteActor } from '../route-actor';
import { BookingView } from './BookingView';

/** Starts the booking machine for the signed-in person. */
export function BookingPage({ kind }: { kind: BookingKind }) {
  const { browserZone, canPickCoach, ownCoachId } = useSchedulingSession();
  const actorRef = useRouteActor(wireBooking, {
    input: { kind, canPickCoach, ownCoachId, today: todayInBerlin() },
  });
  return <BookingView actorRef={actorRef} browserZone={browserZone} />;
}
