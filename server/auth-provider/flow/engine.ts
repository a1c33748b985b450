import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { flowErrors, malformedRequest } from './errors';
import type {
  ActionDef,
  ErrorBody,
  FlowContext,
  FlowDef,
  FlowErrorDef,
  FlowResponseBody,
  HistoryEntry,
  InputDef,
  Outcome,
  RequestInfo,
  StateDef,
  Stash,
  StoredFlow,
  WireAction,
  WireInput,
} from './types';
import { validateInputs } from './validation';
import { isConnectionFailure, RETRY_AFTER_SECONDS } from '../../http/problem';

/** Where flows live. `lock` must refuse at once (FlowLockedError) when another holds the row. */
export interface FlowStore<Tx> {
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  insert(tx: Tx, flow: StoredFlow): Promise<void>;
  lock(tx: Tx, id: string): Promise<StoredFlow | null>;
  update(tx: Tx, flow: StoredFlow): Promise<void>;
}

export class FlowLockedError extends Error {
  constructor() {
    super('The flow is busy with another action');
  }
}

export interface FlowResult {
  status: number;
  body: FlowResponseBody;
  headers: Record<string, string | string[]>;
}

export interface FlowEngineOptions<Env, Tx> {
  flows: Record<string, FlowDef<Env>>;
  store: FlowStore<Tx>;
  /** The services actions see, bound to the flow's transaction. */
  env: (tx: Tx) => Env;
  now?: () => Date;
  /** Include internal causes in technical errors. */
  debug?: boolean;
  /** Unexpected errors (logged by the caller, without personal data). */
  onError?: (error: unknown) => void;
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

// Random bytes are taken from a pool refilled 4 KB at a time: one call into the CSPRNG per
// ~100 tokens instead of one per token (every flow answer carries a new token).
let entropy = Buffer.alloc(0);
let entropyAt = 0;
function randomByte(): number {
  if (entropyAt >= entropy.length) {
    entropy = randomBytes(4096);
    entropyAt = 0;
  }
  return entropy[entropyAt++]!;
}

/** 32 random alphanumerics (rejection sampling keeps them uniform). */
export function newCsrfToken(): string {
  let out = '';
  while (out.length < 32) {
    const byte = randomByte();
    if (byte < 248) out += ALPHANUMERIC[byte % 62];
  }
  return out;
}

function sameToken(given: unknown, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const ACTION_PARAM = /^([a-z_]+)@([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** The response shape of refused requests (protocol §2.6): nothing about the flow changes. */
export function bareError(error: FlowErrorDef): FlowResult {
  return {
    status: error.status,
    headers: {},
    body: {
      name: 'error',
      status: error.status,
      csrf_token: '',
      actions: {},
      error: {
        code: error.code,
        message: error.message,
        ...(error.cause ? { cause: error.cause } : {}),
      },
      links: null,
    },
  };
}

const backAction: ActionDef<unknown> = {
  name: 'back',
  description: 'Navigate one step back.',
  execute: async () => ({ kind: 'revert' }),
};

const errorState: StateDef<unknown> = { name: 'error', actions: [] };

function wireInput(def: InputDef): WireInput {
  return {
    name: def.name,
    type: def.type,
    ...(def.required !== undefined ? { required: def.required } : {}),
    ...(def.minLength !== undefined ? { min_length: def.minLength } : {}),
    ...(def.maxLength !== undefined ? { max_length: def.maxLength } : {}),
    ...(def.hidden !== undefined ? { hidden: def.hidden } : {}),
    ...(def.allowedValues ? { allowed_values: def.allowedValues } : {}),
  };
}

interface Executed {
  name: string;
  values: Record<string, unknown>;
  errors: Record<string, ErrorBody>;
}

interface Scratch {
  payload: Record<string, unknown>;
  headers: Record<string, string | string[]>;
  flowError: FlowErrorDef | null;
  preventRevert: boolean;
  effects: Array<() => Promise<void> | void>;
}

/** What `present` shows: the flow to store and answer with, and how this step ended. */
interface Presentation<Env, Tx> {
  tx: Tx;
  def: FlowDef<Env>;
  flow: StoredFlow;
  request: RequestInfo;
  at: Date;
  scratch: Scratch;
  /** The action that stays on its state (its values and input errors are shown again). */
  executed?: Executed | null;
  status?: number;
  error?: FlowErrorDef | null;
  /** A flow not yet stored: inserted (version 0) instead of updated. */
  isNew?: boolean;
}

export function createFlowEngine<Env, Tx>(options: FlowEngineOptions<Env, Tx>) {
  const { flows, store } = options;
  const now = options.now ?? (() => new Date());
  // Refuses a second action on a flow this process is already running at once; the row
  // lock (FOR UPDATE NOWAIT) does the same across processes.
  const busy = new Set<string>();

  function stateOf(def: FlowDef<Env>, name: string): StateDef<Env> {
    const state =
      def.states[name] ?? (name === 'error' ? (errorState as StateDef<Env>) : undefined);
    if (!state) throw new Error(`flow ${def.name} has no state ${name}`);
    return state;
  }

  function context(
    flow: { id: string; name: string },
    stash: Stash,
    env: Env,
    request: RequestInfo,
    at: Date,
    input: Record<string, unknown>,
    scratch: Scratch,
    entered = false,
  ): FlowContext<Env> {
    return {
      flowId: flow.id,
      flowName: flow.name,
      state: stash.state,
      prevState: stash.prevState,
      entered,
      env,
      request,
      now: at,
      data: stash.data,
      input,
      payload: scratch.payload,
      headers: scratch.headers,
      scheduled: stash.scheduled,
      setFlowError: (error) => {
        scratch.flowError = error;
      },
      preventRevert: () => {
        scratch.preventRevert = true;
      },
      afterCommit: (effect) => {
        scratch.effects.push(effect);
      },
    };
  }

  function available(state: StateDef<Env>, ctx: FlowContext<Env>, history: HistoryEntry[]) {
    const actions = state.actions.filter((a) => a.enabled?.(ctx) ?? true);
    if (state.back && history.at(-1)?.revertible) actions.push(backAction as ActionDef<Env>);
    return actions;
  }

  function render(
    def: FlowDef<Env>,
    flowId: string,
    state: StateDef<Env>,
    ctx: FlowContext<Env>,
    history: HistoryEntry[],
    executed: Executed | null,
  ): Record<string, WireAction> {
    const out: Record<string, WireAction> = {};
    for (const action of available(state, ctx, history)) {
      const inputs: Record<string, WireInput> = {};
      for (const inputDef of action.inputs?.(ctx) ?? []) {
        const input = wireInput(inputDef);
        if (executed?.name === action.name) {
          if (inputDef.preserve && executed.values[inputDef.name] !== undefined) {
            input.value = executed.values[inputDef.name];
          }
          const error = executed.errors[inputDef.name];
          if (error) input.error = error;
        }
        inputs[inputDef.name] = input;
      }
      out[action.name] = {
        href: `/${def.name}?action=${encodeURIComponent(`${action.name}@${flowId}`)}`,
        action: action.name,
        inputs,
        description: action.description,
      };
    }
    return out;
  }

  async function finish(result: FlowResult, scratch: Scratch): Promise<FlowResult> {
    for (const effect of scratch.effects) {
      try {
        await effect();
      } catch (error) {
        options.onError?.(error);
      }
    }
    return result;
  }

  function technical(error: unknown): FlowResult {
    options.onError?.(error);
    // The database cannot be reached: the same technical_error, but as 503 with Retry-After,
    // so clients and load balancers retry instead of treating it as a fault of the flow.
    if (isConnectionFailure(error)) {
      const result = bareError(flowErrors.unavailable);
      return { ...result, headers: { 'retry-after': String(RETRY_AFTER_SECONDS) } };
    }
    return bareError({
      ...flowErrors.technical,
      ...(options.debug && error instanceof Error ? { cause: error.message } : {}),
    });
  }

  /**
   * Enters (or shows again) `stash.state`: runs its `before` hook, stores the flow with a new
   * CSRF token and builds the response.
   */
  async function present({
    tx,
    def,
    flow,
    request,
    at,
    scratch,
    executed = null,
    status = 200,
    error = null,
    isNew = false,
  }: Presentation<Env, Tx>): Promise<FlowResult> {
    const env = options.env(tx);
    const state = stateOf(def, flow.stash.state);
    const entered = isNew || flow.stash.state !== flow.state;
    const ctx = context(
      flow,
      flow.stash,
      env,
      request,
      at,
      executed?.values ?? {},
      scratch,
      entered,
    );
    await state.before?.(ctx);
    const shownError = scratch.flowError ?? error;
    const shownStatus = scratch.flowError?.status ?? status;
    const stored: StoredFlow = {
      ...flow,
      state: flow.stash.state,
      csrfToken: newCsrfToken(),
      version: isNew ? 0 : flow.version + 1,
    };
    if (isNew) await store.insert(tx, stored);
    else await store.update(tx, stored);
    return {
      status: shownStatus,
      headers: scratch.headers,
      body: {
        name: stored.state,
        status: shownStatus,
        payload: scratch.payload,
        csrf_token: stored.csrfToken,
        actions: render(def, flow.id, state, ctx, flow.history, executed),
        ...(shownError
          ? {
              error: {
                code: shownError.code,
                message: shownError.message,
                ...(shownError.cause && options.debug ? { cause: shownError.cause } : {}),
              },
            }
          : {}),
        links: null,
      },
    };
  }

  const newScratch = (): Scratch => ({
    payload: {},
    headers: {},
    flowError: null,
    preventRevert: false,
    effects: [],
  });

  /** `POST /{flow}` without `action`: a new flow in its first state. */
  async function start(flowName: string, request: RequestInfo): Promise<FlowResult> {
    const def = flows[flowName];
    if (!def) return bareError(flowErrors.operationNotPermitted);
    const scratch = newScratch();
    const at = now();
    try {
      const result = await store.transaction((tx) => {
        const [first, ...rest] = def.initial;
        const flow: StoredFlow = {
          id: randomUUID(),
          name: def.name,
          state: first,
          stash: {
            state: first,
            prevState: null,
            scheduled: rest,
            data: def.initialData?.(request) ?? {},
          },
          history: [],
          csrfToken: '',
          version: 0,
          expiresAt: new Date(at.getTime() + def.ttlSeconds * 1000),
        };
        return present({ tx, def, flow, request, at, scratch, isNew: true });
      });
      return await finish(result, scratch);
    } catch (error) {
      return technical(error);
    }
  }

  /** `POST /{flow}?action=<name>@<flowId>` with `{input_data, csrf_token}`. */
  async function run(
    flowName: string,
    actionParam: string,
    body: unknown,
    request: RequestInfo,
  ): Promise<FlowResult> {
    const def = flows[flowName];
    if (!def) return bareError(flowErrors.operationNotPermitted);
    const match = ACTION_PARAM.exec(actionParam);
    if (!match) return bareError(malformedRequest('action'));
    const [, actionName, flowId] = match as unknown as [string, string, string];
    // No body is an empty one (the SDK sends none for actions without inputs).
    if (body !== undefined && body !== null && !isObject(body))
      return bareError(malformedRequest('body'));
    const given = (body ?? {}) as Record<string, unknown>;
    const rawInput = given.input_data ?? {};
    if (!isObject(rawInput)) return bareError(malformedRequest('input_data'));
    if (busy.has(flowId)) return bareError(flowErrors.technical);
    busy.add(flowId);
    const scratch = newScratch();
    const at = now();
    try {
      const result = await store.transaction(async (tx) => {
        const flow = await store.lock(tx, flowId);
        if (!flow || flow.name !== def.name) return bareError(flowErrors.operationNotPermitted);
        if (flow.expiresAt.getTime() <= at.getTime()) return bareError(flowErrors.flowExpired);
        if (!sameToken(given.csrf_token, flow.csrfToken)) {
          return bareError(flowErrors.operationNotPermitted);
        }
        const state = stateOf(def, flow.stash.state);
        const env = options.env(tx);
        // The stored flow was read for this step alone: the action may change its stash in
        // place; `before` keeps the state it started from (history).
        const before = structuredClone(flow.stash);
        const stash: Stash = flow.stash;
        const probe = context(flow, stash, env, request, at, {}, scratch);
        // The flow may refuse the caller (profile: another session) before anything is offered.
        const refused = def.prepare ? await def.prepare(probe) : null;
        if (refused) return bareError(refused);
        const action = available(state, probe, flow.history).find((a) => a.name === actionName);
        if (!action) return bareError(flowErrors.operationNotPermitted);

        const { values, errors } = validateInputs(
          action.inputs?.(probe) ?? [],
          rawInput as Record<string, unknown>,
        );
        let outcome: Outcome;
        if (Object.keys(errors).length > 0) {
          outcome = { kind: 'error', error: flowErrors.formDataInvalid, inputErrors: errors };
        } else {
          outcome = await action.execute(context(flow, stash, env, request, at, values, scratch));
        }

        const history = [...flow.history];
        let next: Stash = stash;
        let executed: Executed | null = null;
        let status = 200;
        let error: FlowErrorDef | null = null;
        switch (outcome.kind) {
          case 'continue': {
            const scheduled = [...outcome.states, ...stash.scheduled];
            const target = scheduled.shift();
            if (!target) throw new Error(`nothing scheduled after ${stash.state}`);
            if (target !== stash.state) {
              history.push({
                state: before.state,
                prevState: before.prevState,
                data: before.data,
                scheduled: before.scheduled,
                revertible: !scratch.preventRevert,
              });
              next = { state: target, prevState: stash.state, scheduled, data: stash.data };
            } else {
              next = { ...stash, scheduled };
            }
            break;
          }
          case 'revert': {
            const entry = history.pop();
            if (!entry) throw new Error('no history to go back to');
            next = {
              state: entry.state,
              prevState: entry.prevState,
              scheduled: entry.scheduled,
              // The passcode and address of this flow survive going back.
              data: { ...entry.data, ...(stash.data.sticky ? { sticky: stash.data.sticky } : {}) },
            };
            if (outcome.error) {
              error = outcome.error;
              status = outcome.error.status;
            }
            break;
          }
          case 'stay':
            executed = { name: action.name, values, errors: {} };
            break;
          case 'error':
            error = outcome.error;
            status = outcome.error.status;
            if (status >= 500) {
              next = { state: 'error', prevState: stash.state, scheduled: [], data: stash.data };
            } else {
              executed = { name: action.name, values, errors: outcome.inputErrors ?? {} };
            }
            break;
        }
        return present({
          tx,
          def,
          flow: { ...flow, stash: next, history },
          request,
          at,
          scratch,
          executed,
          status,
          error,
        });
      });
      return await finish(result, scratch);
    } catch (error) {
      if (error instanceof FlowLockedError) return bareError(flowErrors.technical);
      return technical(error);
    } finally {
      busy.delete(flowId);
    }
  }

  return { start, run };
}

export type FlowEngine = ReturnType<typeof createFlowEngine>;
