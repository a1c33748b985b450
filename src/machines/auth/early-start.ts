import { createActor, type Actor, type ActorOptions } from 'xstate';
import { createAuthFlowActors, type AuthFlowDeps } from './actors';
import { authFlowMachine } from './flow.machine';
import type { FlowName, FlowReply } from './types';

/** An early flow not taken by then is stopped (the page never showed its widget). */
const MAX_AGE_MS = 60_000;

export type EarlyFlow = Actor<typeof authFlowMachine>;

const started = new Map<FlowName, EarlyFlow>();
const beforeWidget = new WeakMap<EarlyFlow, { unsubscribe(): void }>();

/**
 * Starts the sign-in widget's flow machine with the app's start script, before React rendered
 * the page (src/main.tsx, on /login; bench/web.ts): its first requests (`POST /login`,
 * the preflight) run while the page's code and translations arrive and the app renders, and
 * the widget shows the machine's state at once instead of starting it after its first render.
 * The same machine with the same actors as the widget's own (AuthWidget adopts it through
 * `takeEarlyFlow`, once); a later start (another widget, a new page) creates its own.
 */
export function startFlowEarly(
  deps: AuthFlowDeps,
  flowName: FlowName,
  options: {
    /** The flow's first answer, asked for before this module loaded (./flow-request.ts). */
    firstReply?: Promise<FlowReply>;
    inspect?: ActorOptions<typeof authFlowMachine>['inspect'];
  } = {},
): void {
  const { inspect } = options;
  let firstReply = options.firstReply ?? null;
  const takeStarted = () => {
    const reply = firstReply;
    firstReply = null;
    return reply;
  };
  const actors = createAuthFlowActors({ ...deps, takeStarted });
  const actor = createActor(authFlowMachine.provide({ actors }), {
    input: { flowName },
    ...(inspect ? { inspect } : {}),
  });
  started.set(flowName, actor);
  // A passkey autofill can sign in before the page rendered its widget: until a widget shows
  // the flow (its EventBridge forwards from then on), the flow's events go to the app directly.
  beforeWidget.set(
    actor,
    actor.on('*', (event) => deps.authEvents.emit(event)),
  );
  actor.start();
  setTimeout(() => {
    if (started.get(flowName) !== actor) return;
    started.delete(flowName);
    actor.stop();
  }, MAX_AGE_MS);
}

/** The early flow of this name, once; null when there is none. */
export function takeEarlyFlow(flowName: FlowName): EarlyFlow | null {
  const actor = started.get(flowName) ?? null;
  started.delete(flowName);
  return actor;
}

/** Widgets showing an early flow; it stops when the last one is gone for good. */
const holders = new WeakMap<EarlyFlow, number>();

/**
 * A widget shows the early flow (in an effect); the returned function lets go of it. The flow
 * stops a task after the last widget let go: StrictMode unmounts and mounts again at once,
 * which is no goodbye.
 */
export function holdEarlyFlow(actor: EarlyFlow): () => void {
  // Runs after the widget's EventBridge subscribed (a parent's effect follows its children's).
  beforeWidget.get(actor)?.unsubscribe();
  beforeWidget.delete(actor);
  holders.set(actor, (holders.get(actor) ?? 0) + 1);
  return () => {
    holders.set(actor, (holders.get(actor) ?? 1) - 1);
    setTimeout(() => {
      if (!holders.get(actor)) actor.stop();
    }, 0);
  };
}
