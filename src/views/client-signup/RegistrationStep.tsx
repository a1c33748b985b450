import { useEffect, useState } from 'react';
import type { AnyActorRef } from 'xstate';
import { wireAuthFlow } from '../../machines/wiring/auth';
import { EventBridge } from '../auth/EventBridge';
import { AuthFlowActor } from '../auth/flowContext';
import { FlowScreen } from '../auth/screens';
import { useRouteEffects } from '../route-actor';

/**
 * The sign-in widget's registration flow inside the sign-up: the same flow machine, actors
 * and screens as /login (no second protocol client). The page hands the running flow to the
 * sign-up machine (`onAttach`), which types the form's address in and takes the new session.
 */
export function RegistrationStep({ onAttach }: { onAttach: (flow: AnyActorRef) => void }) {
  const { effects, inspect } = useRouteEffects();
  // One flow per mounted step.
  const [logic] = useState(() => wireAuthFlow(effects));
  return (
    <AuthFlowActor.Provider
      logic={logic}
      options={{ input: { flowName: 'registration' }, ...(inspect ? { inspect } : {}) }}
    >
      <div className="auth-widget">
        <Attach onAttach={onAttach} />
        <EventBridge />
        <FlowScreen />
      </div>
    </AuthFlowActor.Provider>
  );
}

function Attach({ onAttach }: { onAttach: (flow: AnyActorRef) => void }) {
  const flow = AuthFlowActor.useActorRef();
  useEffect(() => onAttach(flow), [flow, onAttach]);
  return null;
}
