import { useActorRef } from '@xstate/react';
import { useEffect } from 'react';
import { eventThrottleMachine } from '../../machines/auth/support.machines';
import { usePageServices } from '../page-services';
import { AuthFlowActor } from './flowContext';

/**
 * Forwards the flow machine's emitted events (session-created, user-deleted, session-expired)
 * to the app's auth-event channel, through the 1 s event throttle. Rendered inside the flow's
 * provider by the widget and by the sign-up's registration step.
 */
export function EventBridge() {
  const { authEvents } = usePageServices();
  const flow = AuthFlowActor.useActorRef();
  const throttle = useActorRef(eventThrottleMachine);
  useEffect(() => {
    const forwarded = throttle.on('event.forwarded', ({ event }) => authEvents.emit(event));
    const emitted = flow.on('*', (event) => throttle.send({ type: 'event.forward', event }));
    return () => {
      emitted.unsubscribe();
      forwarded.unsubscribe();
    };
  }, [authEvents, flow, throttle]);
  return null;
}
