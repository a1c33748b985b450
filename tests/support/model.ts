import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createActor,
  fromPromise,
  initialTransition,
  SimulatedClock,
  transition,
  type Actor,
  type AnyActorLogic,
  type AnyEventObject,
  type AnyStateMachine,
  type AnyStateNode,
  type EventObject,
  type InputFrom,
  type SnapshotFrom,
} from 'xstate';
import { getShortestPaths, getStateNodes, type StatePath } from 'xstate/graph';

/**
 * The one model-based test harness (docs/style.md, "Testing machines"). Paths come from the real
 * machine with xstate/graph (shortest paths over the events a plan lists, invoke results and
 * delays included, plus hand-written walks); each path is played against a live actor whose
 * effects are fakes, and after every step the harness checks that the actor is where the model
 * says (state and tags) and runs the checks of what a person notices in that state (the view,
 * or the tags, `can()` and context the view renders). Guard tests fail when some state of the
 * machine is never reached by the paths, or has no check.
 */

export type Snap = SnapshotFrom<AnyStateMachine>;
export type ModelPath = StatePath<Snap, AnyEventObject>;

/** Lets settled promises and their follow-up events reach the actor. */
export const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/* ------------------------------------------------------------------------------------------ */
/* Fake actors                                                                                  */
/* ------------------------------------------------------------------------------------------ */

export interface FakeCall<I, O> {
  input: I;
  signal: AbortSignal;
  settled: boolean;
  resolve(value: O): void;
  reject(error: unknown): void;
}

/** A fake promise actor: each call waits until the test settles it, so every state between can be seen. */
export interface Fake<I = any, O = any> {
  logic: ReturnType<typeof fromPromise<O, I>>;
  /** The inputs of every call, oldest first. */
  calls: I[];
  /** Every call with its settling functions, oldest first. */
  all: Array<FakeCall<I, O>>;
  latest(): FakeCall<I, O>;
  /** Settles the newest open call (older ones were given up when their state was left). */
  resolve(value: O): void;
  reject(error: unknown): void;
  pending(): number;
}

export function fake<I = any, O = any>(): Fake<I, O> {
  const all: Array<FakeCall<I, O>> = [];
  const calls: I[] = [];
  const open = () => {
    const call = all.findLast((c) => !c.settled);
    if (!call) throw new Error('no open call to settle');
    return call;
  };
  return {
    logic: fromPromise<O, I>(
      ({ input, signal }) =>
        new Promise<O>((resolve, reject) => {
          const call: FakeCall<I, O> = {
            input,
            signal,
            settled: false,
            resolve: (value) => ((call.settled = true), resolve(value)),
            reject: (error) => ((call.settled = true), reject(error)),
          };
          calls.push(input);
          all.push(call);
        }),
    ),
    calls,
    all,
    latest: () => {
      const call = all.at(-1);
      if (!call) throw new Error('no call yet');
      return call;
    },
    resolve: (value) => open().resolve(value),
    reject: (error) => open().reject(error),
    pending: () => all.filter((c) => !c.settled).length,
  };
}

/** The `src` of every invoke, by its id (the id names the `xstate.done.actor.<id>` event). */
export function invokeSources(machine: AnyStateMachine): Record<string, string> {
  const sources: Record<string, string> = {};
  for (const node of [machine.root, ...getStateNodes(machine.root)]) {
    for (const invoke of node.invoke) {
      if (typeof invoke.src === 'string') sources[invoke.id] = invoke.src;
    }
  }
  return sources;
}

export interface Started<M extends AnyStateMachine> {
  actor: Actor<M>;
  /** A fake per actor `src` the test did not supply itself. */
  fakes: Record<string, Fake>;
  clock: SimulatedClock;
}

/**
 * Starts the machine on a simulated clock with every actor faked (`.provide()`), except the
 * ones given; actions given replace the machine's (toasts, navigation…).
 */
export function startMachine<M extends AnyStateMachine>(
  machine: M,
  options: {
    input?: InputFrom<M>;
    actors?: Record<string, AnyActorLogic>;
    actions?: Record<string, (...args: any[]) => void>;
    clock?: SimulatedClock;
  } = {},
): Started<M> {
  const fakes: Record<string, Fake> = {};
  for (const src of Object.keys(machine.implementations.actors)) {
    if (!options.actors?.[src]) fakes[src] = fake();
  }
  const actors = {
    ...Object.fromEntries(Object.entries(fakes).map(([src, f]) => [src, f.logic])),
    ...options.actors,
  };
  const clock = options.clock ?? new SimulatedClock();
  const provided = machine.provide({
    actors,
    ...(options.actions ? { actions: options.actions } : {}),
  } as never);
  const actor = createActor(provided, {
    clock,
    ...(options.input !== undefined ? { input: options.input } : {}),
  } as never).start() as Actor<M>;
  return { actor, fakes, clock };
}

/** The model's event for an invoked actor's result (`id` is the invoke id). */
export const done = (id: string, output?: unknown): AnyEventObject => ({
  type: `xstate.done.actor.${id}`,
  output,
});
export const failed = (id: string, error: unknown): AnyEventObject => ({
  type: `xstate.error.actor.${id}`,
  error,
});

/* ------------------------------------------------------------------------------------------ */
/* Paths                                                                                        */
/* ------------------------------------------------------------------------------------------ */

export interface Plan<M extends AnyStateMachine> {
  /** Names the plan in test titles (when a machine has several starts). */
  name?: string;
  input?: InputFrom<M>;
  /**
   * The events the model may take: UI events, invoke results (`xstate.done.actor.<id>`,
   * `xstate.error.actor.<id>`) and delays (`xstate.after.<delay>.<stateId>`). Invoke results
   * are offered only while that actor runs.
   */
  events: readonly AnyEventObject[] | ((snapshot: SnapshotFrom<M>) => readonly AnyEventObject[]);
  /** What of the context changes what is shown, kept finite (default: the state value). */
  serialize?: (snapshot: SnapshotFrom<M>) => unknown;
  /** Extra paths as event sequences, for transitions the shortest paths do not take. */
  walks?: ReadonlyArray<readonly AnyEventObject[]>;
  /** Traversal bound (transitions explored); passing it fails the test instead of running long. */
  limit?: number;
}

const RESULT = /^xstate\.(?:done|error)\.actor\.(.+)$/;

/** Invoke results only for the actors running in that snapshot (others would fail the machine). */
const runningOnly = (events: readonly AnyEventObject[], snapshot: Snap) =>
  events.filter((e) => {
    const m = RESULT.exec(e.type);
    return !m || m[1]! in snapshot.children;
  });

/** Shortest paths (and walks) of one plan. */
export function pathsOf<M extends AnyStateMachine>(machine: M, plan: Plan<M>): ModelPath[] {
  const events = (snapshot: Snap) =>
    runningOnly(
      typeof plan.events === 'function' ? plan.events(snapshot as SnapshotFrom<M>) : plan.events,
      snapshot,
    );
  const serializeState = (snapshot: Snap) =>
    JSON.stringify([
      snapshot.value,
      plan.serialize ? plan.serialize(snapshot as SnapshotFrom<M>) : null,
    ]);
  const options = {
    events,
    serializeState,
    serializeEvent: (event: EventObject) => JSON.stringify(event),
    limit: plan.limit ?? 20_000,
    ...(plan.input !== undefined ? { input: plan.input } : {}),
  };
  const shortest = getShortestPaths(machine, options as never) as unknown as ModelPath[];
  const walks = (plan.walks ?? []).map((walk) => walkOf(machine, plan.input, walk));
  return withoutPrefixes([...shortest, ...walks]);
}

/** Drops each path that a longer one starts with: the longer one checks all its states too. */
function withoutPrefixes(paths: ModelPath[]): ModelPath[] {
  const keyOf = (path: ModelPath) =>
    path.steps.map((s) => JSON.stringify(s.event)).join('\n') + '\n';
  const keys = paths.map(keyOf);
  return paths.filter(
    (_, i) =>
      !keys.some(
        (other, j) =>
          j !== i && other.startsWith(keys[i]!) && (other.length > keys[i]!.length || j < i),
      ),
  );
}

/** The path a sequence of events takes, step by step from the start (no graph needed). */
export function walkOf<M extends AnyStateMachine>(
  machine: M,
  input: InputFrom<M> | undefined,
  events: readonly AnyEventObject[],
): ModelPath {
  let [snapshot] = initialTransition(machine, input as never) as unknown as [Snap];
  const steps: ModelPath['steps'] = [{ event: { type: 'xstate.init' }, state: snapshot }];
  for (const event of events) {
    const next = (transition(machine, snapshot as never, event as never) as unknown as [Snap])[0];
    // A walk that lists an event the machine ignores there is a mistake in the walk.
    if (
      JSON.stringify(next.value) === JSON.stringify(snapshot.value) &&
      next.context === snapshot.context
    ) {
      throw new Error(`walk: ${event.type} changes nothing in ${JSON.stringify(snapshot.value)}`);
    }
    snapshot = next;
    steps.push({ event, state: snapshot });
  }
  return { state: snapshot, steps, weight: steps.length };
}

/** The ids of the state nodes a snapshot is in. */
export const activeStateIds = (snapshot: Snap): string[] =>
  (snapshot as unknown as { _nodes: AnyStateNode[] })._nodes.map((n) => n.id);

/** A state a snapshot never rests in: it only passes through (`always` and nothing else). */
const isTransient = (node: AnyStateNode) =>
  node.always !== undefined &&
  node.always.length > 0 &&
  Object.keys(node.on).length === 0 &&
  node.after.length === 0 &&
  node.invoke.length === 0 &&
  Object.keys(node.states).length === 0;

/** Every state node a snapshot can rest in. */
export function restingStates(machine: AnyStateMachine): AnyStateNode[] {
  return getStateNodes(machine.root).filter((n) => !isTransient(n));
}

/** The resting states of the machine that no snapshot of the paths is in. */
export function unreachedStates(machine: AnyStateMachine, paths: readonly ModelPath[]): string[] {
  const reached = new Set<string>();
  for (const path of paths) {
    for (const step of path.steps) for (const id of activeStateIds(step.state)) reached.add(id);
    for (const id of activeStateIds(path.state)) reached.add(id);
  }
  return restingStates(machine)
    .map((n) => n.id)
    .filter((id) => !reached.has(id));
}

export const pathTitle = (path: ModelPath) =>
  path.steps.map((s) => s.event.type.replace('xstate.', '')).join(' → ') || '(start)';

/* ------------------------------------------------------------------------------------------ */
/* Running a path                                                                               */
/* ------------------------------------------------------------------------------------------ */

/** What a test's `start` returns: the live actor and whatever its checks need. */
export interface Run<M extends AnyStateMachine> {
  actor: Actor<M>;
  /** The fakes that answer invoke results, by actor `src`. */
  fakes?: Record<string, Fake>;
  /** Advanced for `xstate.after.*` steps. */
  clock?: SimulatedClock;
}

export type StateCheck<M extends AnyStateMachine, R> = (
  snapshot: SnapshotFrom<M>,
  run: R,
) => unknown;
export type EventDriver<R> = (event: any, run: R) => unknown;

export interface ModelTest<M extends AnyStateMachine, R extends Run<M>> {
  machine: M;
  plans: ReadonlyArray<Plan<M>>;
  /** Starts a live actor (and renders its view, if the test plays paths against one). */
  start(plan: Plan<M>): R | Promise<R>;
  /**
   * How an event happens, where it is not just sent to the actor (a click in the view…).
   * Invoke results settle the fake of that actor and delays advance the clock, unless listed.
   */
  events?: Record<string, EventDriver<R>>;
  /**
   * What a person notices in each state, by state id (`machine.state.sub`, a leading `#` is
   * fine); a check on a compound state (or the root) runs in each of its children. Every
   * resting state needs one of its own or of a parent other than the root.
   */
  states: Record<string, StateCheck<M, R>>;
  /** How any other event happens (default: sent to the actor). */
  drive?: EventDriver<R>;
  /** Which of the generated paths to play (default: all); the reach guard still uses all. */
  play?: (paths: ModelPath[]) => ModelPath[];
  /** Runs each step inside this (React's `act()` when a view is rendered). */
  wrap?: (step: () => Promise<void>) => Promise<unknown>;
  /** After the last step: checks over the whole path. */
  finish?(run: R, path: ModelPath, plan: Plan<M>): unknown;
  /** Refuses plans whose paths grow beyond this (keeps the unit tests fast). */
  maxPaths?: number;
}

function delayOf(machine: AnyStateMachine, type: string, snapshot: Snap): number {
  const name = /^xstate\.after\.([^.]+)\./.exec(type)?.[1];
  if (name === undefined) throw new Error(`not a delay: ${type}`);
  if (/^\d+$/.test(name)) return Number(name);
  const delay = (machine.implementations.delays as Record<string, unknown>)[name];
  if (typeof delay === 'number') return delay;
  if (typeof delay === 'function') return delay({ context: snapshot.context });
  throw new Error(`unknown delay ${name}`);
}

const tagsOf = (snapshot: Snap) => [...snapshot.tags].sort();

/** Plays one path on a fresh run; throws with the path and step on the first mismatch. */
export async function playPath<M extends AnyStateMachine, R extends Run<M>>(
  test: ModelTest<M, R>,
  plan: Plan<M>,
  path: ModelPath,
  record?: PlayRecord,
): Promise<void> {
  const run = await test.start(plan);
  const sources = invokeSources(test.machine);
  const wrap = test.wrap ?? ((step) => step());
  const checks = Object.entries(test.states).map(
    ([key, check]) => [key.replace(/^#/, ''), check] as const,
  );

  const drive = async (event: EventObject) => {
    const custom = test.events?.[event.type] ?? test.drive;
    if (custom) return void (await custom(event, run));
    const result = RESULT.exec(event.type);
    if (result) {
      const src = sources[result[1]!] ?? result[1]!;
      const f = run.fakes?.[src];
      if (!f) throw new Error(`no fake for actor ${src} (event ${event.type})`);
      if (event.type.startsWith('xstate.done.')) f.resolve((event as { output?: unknown }).output);
      else f.reject((event as { error?: unknown }).error);
    } else if (event.type.startsWith('xstate.after.')) {
      if (!run.clock) throw new Error(`${event.type}: the run has no simulated clock`);
      run.clock.increment(delayOf(test.machine, event.type, run.actor.getSnapshot()));
    } else {
      run.actor.send(event as never);
    }
  };

  try {
    for (const [index, step] of path.steps.entries()) {
      try {
        await wrap(async () => {
          if (step.event.type !== 'xstate.init') await drive(step.event);
          await flush();
        });
        const live = run.actor.getSnapshot() as Snap;
        expect(live.value, 'state of the live actor').toEqual(step.state.value);
        expect(tagsOf(live), 'tags of the live actor').toEqual(tagsOf(step.state));
        const active = new Set(activeStateIds(live));
        const ran: string[] = [];
        for (const [key, check] of checks) {
          if (!active.has(key)) continue;
          await check(live as SnapshotFrom<M>, run);
          if (key !== test.machine.root.id) ran.push(key);
        }
        record?.note(active, ran);
      } catch (error) {
        const where = `step ${index} (${step.event.type}) of: ${pathTitle(path)}`;
        if (error instanceof Error) error.message = `${where}\n${error.message}`;
        throw error;
      }
    }
    await test.finish?.(run, path, plan);
  } finally {
    run.actor.stop();
  }
}

/**
 * What the played paths did, for the diagram gallery: the states a live actor was in after a
 * step that passed, and those a check ran in (its own, a parent's other than the root's, or a
 * child's).
 */
export class PlayRecord {
  readonly reached = new Set<string>();
  readonly checked = new Set<string>();

  note(active: ReadonlySet<string>, ran: readonly string[]) {
    const related = (a: string, b: string) =>
      a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`);
    for (const id of active) {
      this.reached.add(id);
      if (ran.some((key) => related(id, key))) this.checked.add(id);
    }
  }

  /** Written to test-results/machines/, where `npm run diagrams` reads it. */
  write(
    machine: AnyStateMachine,
    title: string,
    dir = join(process.cwd(), 'test-results/machines'),
  ) {
    mkdirSync(dir, { recursive: true });
    const file = `${machine.id}--${title.replace(/[^A-Za-z0-9]+/g, '-').slice(0, 60)}.json`;
    const ids = restingStates(machine).map((n) => n.id);
    writeFileSync(
      join(dir, file),
      JSON.stringify({
        machine: machine.id,
        title,
        at: new Date().toISOString(),
        states: Object.fromEntries(
          ids.map((id) => [id, { reached: this.reached.has(id), checked: this.checked.has(id) }]),
        ),
      }),
    );
  }
}

/* ------------------------------------------------------------------------------------------ */
/* The describe block                                                                           */
/* ------------------------------------------------------------------------------------------ */

/**
 * Registers a machine's model-based tests: one guard test that the paths reach every state,
 * one that every state has a check, and one test per path.
 */
export function describeModel<M extends AnyStateMachine, R extends Run<M>>(
  title: string,
  test: ModelTest<M, R>,
): void {
  describe(title, () => {
    const plans = test.plans.map((plan) => ({ plan, paths: pathsOf(test.machine, plan) }));
    const all = plans.flatMap((p) => p.paths);
    const maxPaths = test.maxPaths ?? 150;
    const cases = plans.flatMap(({ plan, paths }) =>
      (test.play ? test.play(paths) : paths).map(
        (path) =>
          [plan.name ? `${plan.name}: ${pathTitle(path)}` : pathTitle(path), plan, path] as const,
      ),
    );

    const record = new PlayRecord();
    afterAll(() => {
      record.write(test.machine, title);
      const states = restingStates(test.machine).length;
      console.log(
        JSON.stringify({
          machine: test.machine.id,
          states,
          paths: all.length,
          played: cases.length,
        }),
      );
    });

    it('reaches every state of the machine', () => {
      expect(unreachedStates(test.machine, all), 'states no generated path reaches').toEqual([]);
      expect(
        cases.length,
        'too many paths: bound the plan (serialize less, fewer events)',
      ).toBeLessThanOrEqual(maxPaths);
    });

    it('checks what a person notices in every state', () => {
      const keys = new Set(Object.keys(test.states).map((k) => k.replace(/^#/, '')));
      const ids = new Set(
        [test.machine.root, ...getStateNodes(test.machine.root)].map((n) => n.id),
      );
      const unknown = [...keys].filter((k) => !ids.has(k));
      expect(unknown, 'checks for states the machine does not have').toEqual([]);
      const resting = new Set(restingStates(test.machine));
      // Checked: on itself or a parent other than the root, or in each of its children.
      const checked = (node: AnyStateNode): boolean => {
        for (let n: AnyStateNode | undefined = node; n && n !== test.machine.root; n = n.parent) {
          if (keys.has(n.id)) return true;
        }
        const children = Object.values(node.states).filter((c) => resting.has(c));
        return children.length > 0 && children.every(checked);
      };
      const unchecked = [...resting].filter((node) => !checked(node));
      expect(
        unchecked.map((n) => n.id),
        'states without a check',
      ).toEqual([]);
    });

    it.each(cases)('%s', (_title, plan, path) => playPath(test, plan, path, record));
  });
}
