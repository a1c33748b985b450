import { useActorRef, useSelector } from '@xstate/react';
import { createContext, useContext, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import type { Actor, ActorOptions, AnyActorLogic, EventFromLogic, SnapshotFrom } from 'xstate';
import type { RouteEffects } from '../machines/wiring/effects';

/** What the app injects for route actors: its services and, in development, the inspector. */
export interface RouteActorEnv {
  effects: Omit<RouteEffects, 'navigate' | 'translate' | 'language'>;
  inspect?: ActorOptions<AnyActorLogic>['inspect'];
}

/**
 * Provided by src/app/App.tsx. It lives here, below the app, so that views import nothing
 * from src/app for it (the app imports the views through its route table).
 */
export const RouteActorContext = createContext<RouteActorEnv | null>(null);

/** The effects a `wire…` function of src/machines/wiring/ gets, and the inspector. */
export function useRouteEffects(): { effects: RouteEffects; inspect: RouteActorEnv['inspect'] } {
  const env = useContext(RouteActorContext);
  if (!env)
    throw new Error(
      'useRouteActor: wrap the tree in <RouteActorContext value={…}> (src/app/App.tsx)',
    );
  const [, navigate] = useLocation();
  const { i18n } = useTranslation();
  const effects: RouteEffects = {
    ...env.effects,
    navigate: (path, options) => navigate(path, options),
    translate: (key, values) => i18n.t(key, values ?? {}),
    language: () => i18n.resolvedLanguage ?? 'de',
  };
  return { effects, inspect: env.inspect };
}

/**
 * The one way a page starts its machine: `wire` (from src/machines/wiring/) supplies the
 * machine's actors and actions, and the actor reports to the Stately inspector when the app
 * attached one. Built once per mount, like `useActorRef`.
 */
export function useRouteActor<TLogic extends AnyActorLogic>(
  wire: (effects: RouteEffects) => TLogic,
  options: ActorOptions<TLogic> = {},
): Actor<TLogic> {
  const { effects, inspect } = useRouteEffects();
  const [logic] = useState(() => wire(effects));
  const withInspector = inspect ? { ...options, inspect } : options;
  return (useActorRef as (logic: TLogic, options: ActorOptions<TLogic>) => Actor<TLogic>)(
    logic,
    withInspector,
  );
}

/** `useRouteActor` for pages that render from the whole snapshot, like `useMachine`. */
export function useRouteMachine<TLogic extends AnyActorLogic>(
  wire: (effects: RouteEffects) => TLogic,
  options: ActorOptions<TLogic> = {},
): [SnapshotFrom<TLogic>, (event: EventFromLogic<TLogic>) => void, Actor<TLogic>] {
  const actorRef = useRouteActor(wire, options);
  const snapshot = useSelector(actorRef, (s) => s as SnapshotFrom<TLogic>);
  return [snapshot, actorRef.send, actorRef];
}
