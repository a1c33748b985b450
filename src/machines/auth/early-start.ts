import { postFlow, type FlowRequestDeps } from './flow-request';
import type { FlowName, FlowReply } from './types';

/** An early start older than this is not used (the person left the tab before the widget came). */
const MAX_AGE_MS = 60_000;

const started = new Map<FlowName, { reply: Promise<FlowReply>; at: number }>();

/**
 * Sends a flow's first request (`POST /login`, protocol §3.1) with the app's start script,
 * before the sign-in page's code and translations have arrived (src/main.tsx, on /login): the
 * widget's flow machine then finds the answer there instead of asking after its first render
 * (bench/web.ts, issue #4). Its `startFlow` actor takes the request through `takeEarlyFlowStart`,
 * once; every later start (Continue, a restart) sends its own.
 */
export function startFlowEarly(deps: FlowRequestDeps, flowName: FlowName): void {
  const reply = postFlow(deps, `/${flowName}`, undefined, undefined);
  // Nobody may be waiting yet: a failure is seen by the actor that takes it.
  reply.catch(() => undefined);
  started.set(flowName, { reply, at: Date.now() });
}

/** The early start of this flow, once; null when there is none or it is too old. */
export function takeEarlyFlowStart(flowName: FlowName): Promise<FlowReply> | null {
  const early = started.get(flowName);
  started.delete(flowName);
  return early && Date.now() - early.at <= MAX_AGE_MS ? early.reply : null;
}
