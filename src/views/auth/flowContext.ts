import { useActorRef, useSelector } from '@xstate/react';
import { createContext, createElement, useContext, useEffect, type ReactNode } from 'react';
import type { Actor, ActorOptions } from 'xstate';
import { holdEarlyFlow } from '../../machines/auth/early-start';
import { authFlowMachine, type AuthFlowContext } from '../../machines/auth/flow.machine';
import type { FlowAction, FlowInput } from '../../machines/auth/types';

type FlowLogic = typeof authFlowMachine;
export type AuthFlowActorRef = Actor<FlowLogic>;

const FlowContext = createContext<AuthFlowActorRef | null>(null);

interface ProviderProps {
  children?: ReactNode;
  logic?: FlowLogic;
  options?: ActorOptions<FlowLogic>;
  /**
   * A flow actor already running (src/machines/auth/early-start.ts: the login flow started with
   * the page); the provider adopts it and stops it when the widget goes. Without it the
   * provider creates its own from `logic` and `options`, like @xstate/react's
   * `createActorContext`.
   */
  actor?: AuthFlowActorRef | null;
}

function OwnActor({ children, logic = authFlowMachine, options }: ProviderProps) {
  const actor = useActorRef(logic, options);
  return createElement(FlowContext.Provider, { value: actor }, children);
}

function AdoptedActor({ children, actor }: ProviderProps & { actor: AuthFlowActorRef }) {
  useEffect(() => holdEarlyFlow(actor), [actor]);
  return createElement(FlowContext.Provider, { value: actor }, children);
}

function Provider(props: ProviderProps) {
  return props.actor
    ? createElement(AdoptedActor, { ...props, actor: props.actor })
    : createElement(OwnActor, props);
}

function useFlowActorRef(): AuthFlowActorRef {
  const actor = useContext(FlowContext);
  if (!actor) throw new Error('AuthFlowActor hooks need an <AuthFlowActor.Provider>');
  return actor;
}

type Snapshot = ReturnType<AuthFlowActorRef['getSnapshot']>;

/** The running flow machine of one widget, shared by its screens. */
export const AuthFlowActor = {
  Provider,
  useActorRef: useFlowActorRef,
  useSelector: <T>(selector: (snapshot: Snapshot) => T, compare?: (a: T, b: T) => boolean): T =>
    useSelector(useFlowActorRef(), selector, compare),
};

/** The server state (top-level state name) the machine is in. */
export const selectScreen = (snapshot: Snapshot): string =>
  typeof snapshot.value === 'string' ? snapshot.value : Object.keys(snapshot.value)[0]!;

export const selectContext = (snapshot: Snapshot): AuthFlowContext => snapshot.context;

/** What a screen needs: the answer on show, tags, and helpers to read actions and inputs. */
export function useFlow() {
  const actor = AuthFlowActor.useActorRef();
  const context = AuthFlowActor.useSelector(selectContext);
  const busy = AuthFlowActor.useSelector((s) => s.hasTag('busy'));
  const coolingDown = AuthFlowActor.useSelector((s) => s.hasTag('retryCountdown'));
  const resendWaiting = AuthFlowActor.useSelector((s) => s.hasTag('resendCountdown'));
  const succeeded = AuthFlowActor.useSelector((s) => s.hasTag('succeeded'));
  const response = context.response;
  const action = (name: string): FlowAction | undefined => response?.actions?.[name];
  const input = (actionName: string, inputName: string): FlowInput | undefined =>
    action(actionName)?.inputs?.[inputName];
  return {
    send: actor.send,
    context,
    response,
    payload: response?.payload ?? {},
    busy,
    coolingDown,
    resendWaiting,
    succeeded,
    offered: (name: string) => action(name) !== undefined,
    action,
    input,
    /** The field's error: the widget's own check, else the server's input error. */
    fieldError: (actionName: string, inputName: string): string | undefined =>
      context.clientErrors[inputName] ?? input(actionName, inputName)?.error?.code,
    run: (name: string, inputs?: Record<string, unknown>) =>
      actor.send({ type: 'action.run', name, ...(inputs ? { inputs } : {}) }),
  };
}

export type Flow = ReturnType<typeof useFlow>;
