import { todayInBerlin } from '../../../shared/time';
import { wireAvailabilityWeek } from '../../machines/wiring/availability-week';
import { useSchedulingSession } from '../calendar/scheduling-session';
import { useRouteActor } from '../route-actor';
import { AvailabilityWeekView } from './AvailabilityWeekView';

/** `/availability`: starts the week machine for the signed-in person. */
export default function AvailabilityPage() {
  const { browserZone, canPickCoach, ownCoachId } = useSchedulingSession();
  const actorRef = useRouteActor(wireAvailabilityWeek, {
    input: { canPickCoach, ownCoachId, today: todayInBerlin() },
  });
  return <AvailabilityWeekView actorRef={actorRef} browserZone={browserZone} />;
}
