import { isNarrow } from '../../machines/actors/scheduling';
import { todayInBerlin } from '../../../shared/time';
import { wireInitialCalendar } from '../../machines/wiring/initial-calendar';
import { useRouteActor } from '../route-actor';
import { useSchedulingSession } from './scheduling-session';
import { InitialCalendarView } from './InitialCalendarView';

/** `/calendar/initial-meetings`: the pool of initial-meeting slots, by coach. */
export default function InitialCalendarPage() {
  const { browserZone } = useSchedulingSession();
  const win = typeof window === 'undefined' ? undefined : window;
  const actorRef = useRouteActor(wireInitialCalendar, {
    input: { today: todayInBerlin(), narrow: isNarrow(win) },
  });
  return <InitialCalendarView actorRef={actorRef} browserZone={browserZone} />;
}
