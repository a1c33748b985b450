import { isNarrow } from '../../machines/actors/scheduling';
import { todayInBerlin } from '../../../shared/time';
import { wireCalendar } from '../../machines/wiring/calendar';
import { useRouteActor } from '../route-actor';
import { useSchedulingSession } from './scheduling-session';
import { CalendarView } from './CalendarView';

/** `/calendar`: starts the calendar machine for the signed-in person and this viewport. */
export default function CalendarPage() {
  const { browserZone, canPickCoach } = useSchedulingSession();
  const win = typeof window === 'undefined' ? undefined : window;
  const actorRef = useRouteActor(wireCalendar, {
    input: { canPickCoach, today: todayInBerlin(), narrow: isNarrow(win) },
  });
  return <CalendarView actorRef={actorRef} browserZone={browserZone} />;
}
