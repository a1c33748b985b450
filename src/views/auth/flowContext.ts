import { createActorContext } from '@xstate/react';
import { authFlowMachine, type AuthFlowContext } from '../../machines/auth/flow.machine';
import type { FlowAction, FlowInput } from '../../machines/auth/types';

/** The running flow machine of one widget, shared by its screens. */
export const AuthFlowActor = createActorContext(authFlowMachine);

type Snapshot = ReturnType<ReturnType<typeof AuthFlowActor.useActorRef>['getSnapshot']>;

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
