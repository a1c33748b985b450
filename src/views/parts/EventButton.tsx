import type { ReactNode } from 'react';
import type { EventObject } from 'xstate';

/**
 * A button that sends one event to the page's machine and is disabled while the machine would
 * not take it (`state.can(event)`): the view never decides itself whether an action is open.
 */
export function EventButton<TEvent extends EventObject>({
  state,
  send,
  event,
  className = 'button',
  children,
}: {
  state: { can: (event: TEvent) => boolean };
  send: (event: TEvent) => void;
  event: TEvent;
  className?: string;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={className}
      disabled={!state.can(event)}
      onClick={() => send(event)}
    >
      {children}
    </button>
  );
}
