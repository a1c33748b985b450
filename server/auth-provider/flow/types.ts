/** The wire types of the flow protocol (docs/auth-flow-protocol.md §2) and the engine's own. */

export type InputType = 'string' | 'email' | 'password' | 'boolean' | 'number' | 'json';

export interface AllowedValue {
  value: string;
  name: string;
}

/** An input an action declares; the engine validates against it (protocol §2.3). */
export interface InputDef {
  name: string;
  type: InputType;
  required?: boolean;
  /** Bytes, like Hanko. */
  minLength?: number;
  maxLength?: number;
  hidden?: boolean;
  allowedValues?: AllowedValue[];
  /** Trimmed / lower-cased before validation. */
  trim?: boolean;
  lowercase?: boolean;
  /** Echoed back as `value` on the response to the action that was just run. */
  preserve?: boolean;
  /** json inputs: an explicit null is a value (patch_metadata clears with it), not "missing". */
  nullable?: boolean;
}

export interface ErrorBody {
  code: string;
  message: string;
  cause?: string;
}

export interface FlowErrorDef extends ErrorBody {
  status: number;
}

export interface WireInput {
  name: string;
  type: InputType;
  required?: boolean;
  min_length?: number;
  max_length?: number;
  hidden?: boolean;
  allowed_values?: AllowedValue[];
  value?: unknown;
  error?: ErrorBody;
}

export interface WireAction {
  href: string;
  action: string;
  inputs: Record<string, WireInput>;
  description: string;
}

export interface FlowResponseBody {
  name: string;
  status: number;
  payload?: Record<string, unknown>;
  csrf_token: string;
  actions: Record<string, WireAction>;
  error?: ErrorBody;
  links: null;
}

/** Data of a flow between requests (protocol §1.6). `data.sticky` survives `back`. */
export interface Stash {
  state: string;
  prevState: string | null;
  /** States queued to come next, the first one next. */
  scheduled: string[];
  data: Record<string, unknown>;
}

export interface HistoryEntry {
  /** The state that was left. */
  state: string;
  prevState: string | null;
  /** Flow data and queue as they were before the action that left the state. */
  data: Record<string, unknown>;
  scheduled: string[];
  /** false when the action that left the state forbade going back (a proven credential). */
  revertible: boolean;
}

export interface StoredFlow {
  id: string;
  name: string;
  state: string;
  stash: Stash;
  history: HistoryEntry[];
  csrfToken: string;
  version: number;
  expiresAt: Date;
}

/** How an action ends (protocol §1.6: Continue, Error, Revert), plus staying put with 200. */
export type Outcome =
  | { kind: 'continue'; states: string[] }
  | { kind: 'error'; error: FlowErrorDef; inputErrors?: Record<string, ErrorBody> }
  /** `back`; with an error: back to the previous state, showing why (a refused WebAuthn response). */
  | { kind: 'revert'; error?: FlowErrorDef }
  | { kind: 'stay' };

export interface RequestInfo {
  ip: string;
  userAgent: string | undefined;
  language: string | undefined;
  /** The device-trust cookie the browser sent (`hanko-device-token`). */
  deviceCookie?: string;
  /** The caller's verified session (profile flow; checked before every request). */
  session?: { sessionId: string; userId: string };
}

/** What actions and hooks see. `Env` carries the services (database transaction, config…). */
export interface FlowContext<Env> {
  readonly flowId: string;
  readonly flowName: string;
  readonly state: string;
  readonly prevState: string | null;
  /** True when the state is being entered (not shown again after a 4xx or a `stay`). */
  readonly entered: boolean;
  readonly env: Env;
  readonly request: RequestInfo;
  readonly now: Date;
  /** Flow data, persisted with the flow; change it in place. */
  readonly data: Record<string, unknown>;
  /** Validated, normalised input values of the action being run. */
  readonly input: Record<string, unknown>;
  /** Payload of this response, filled by the action and the entered state's `before` hook. */
  readonly payload: Record<string, unknown>;
  /** Response headers (session issuance). */
  readonly headers: Record<string, string | string[]>;
  /** The states queued after the current one (read-only view). */
  readonly scheduled: readonly string[];
  /** Attach an error to the response without stopping the flow (protocol Q6). */
  setFlowError(error: FlowErrorDef): void;
  /** The step just taken cannot be undone with `back`. */
  preventRevert(): void;
  /** Runs after the transaction committed (e-mails, caches). */
  afterCommit(effect: () => Promise<void> | void): void;
}

export interface ActionDef<Env> {
  name: string;
  description: string;
  inputs?: (ctx: FlowContext<Env>) => InputDef[];
  /** false: the action is suspended (not listed, refused with 403). */
  enabled?: (ctx: FlowContext<Env>) => boolean;
  execute: (ctx: FlowContext<Env>) => Promise<Outcome>;
}

export interface StateDef<Env> {
  name: string;
  actions: ActionDef<Env>[];
  /** Offers `back` when the last history entry is revertible. */
  back?: boolean;
  /** Runs whenever the state is entered or shown again after a 4xx (payload, e-mails). */
  before?: (ctx: FlowContext<Env>) => Promise<void>;
}

export interface FlowDef<Env> {
  name: string;
  ttlSeconds: number;
  /** First state, then the states queued behind it (e.g. preflight, login_init). */
  initial: [string, ...string[]];
  states: Record<string, StateDef<Env>>;
  /** Flow data of a new flow (e.g. the owner of a profile flow). */
  initialData?: (request: RequestInfo) => Record<string, unknown>;
  /**
   * Runs on every action request before the engine decides which actions are available:
   * loads what `enabled` reads, or refuses the request (a bare error, nothing changes).
   */
  prepare?: (ctx: FlowContext<Env>) => Promise<FlowErrorDef | null>;
}
