import { useEffect, useRef, useState } from 'react';
import type { AuthFlowDeps } from '../../machines/auth/actors';
import { takeEarlyFlow } from '../../machines/auth/early-start';
import type { FlowName } from '../../machines/auth/types';
import { wireAuthFlow } from '../../machines/wiring/auth';
import { useRouteEffects } from '../route-actor';
import { EventBridge } from './EventBridge';
import { AuthFlowActor, selectScreen } from './flowContext';
import { FlowScreen } from './screens';
import { RegistrationHref } from './registration-link';

export interface AuthWidgetProps {
  flow: FlowName;
  /** Called once when the flow reaches `success` (after session-created was emitted). */
  onSucceeded?: () => void;
  /** "Registrieren" leads to this page instead of switching to the registration flow. */
  registrationHref?: string;
  /** Replaces the browser parts (tests). */
  deps?: Partial<Omit<AuthFlowDeps, 'authApi' | 'getToken' | 'authEvents'>>;
}

/**
 * The sign-in widget: runs the flow machine against the provider and shows the screen of its
 * state. Its events (session-created, user-deleted, session-expired) go, throttled to one of
 * a kind per second, to the app's auth-event channel.
 */
export function AuthWidget({ flow, onSucceeded, registrationHref, deps }: AuthWidgetProps) {
  const { effects, inspect } = useRouteEffects();
  // The login flow may be running since the app started (src/main.tsx): this widget shows it,
  // and builds no machine of its own (the flow machine is large to build).
  const [early] = useState(() => (deps ? null : takeEarlyFlow(flow)));
  // The machine is built once per widget; later changes of deps do not restart a flow.
  const [logic] = useState(() => (early ? undefined : wireAuthFlow(effects, deps)));
  return (
    <AuthFlowActor.Provider
      {...(logic ? { logic } : {})}
      options={{ input: { flowName: flow }, ...(inspect ? { inspect } : {}) }}
      actor={early}
    >
      <RegistrationHref.Provider value={registrationHref ?? null}>
        <div className="auth-widget">
          <EventBridge />
          <SuccessWatcher {...(onSucceeded ? { onSucceeded } : {})} />
          <FlowScreen />
        </div>
      </RegistrationHref.Provider>
    </AuthFlowActor.Provider>
  );
}

function SuccessWatcher({ onSucceeded }: { onSucceeded?: () => void }) {
  const screen = AuthFlowActor.useSelector(selectScreen);
  const callback = useRef(onSucceeded);
  useEffect(() => {
    callback.current = onSucceeded;
  }, [onSucceeded]);
  useEffect(() => {
    if (screen === 'success') callback.current?.();
  }, [screen]);
  return null;
}
