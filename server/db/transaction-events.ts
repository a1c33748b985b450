import type { Tx } from './client';

/** A kind of event, typed by what it carries; a feature declares its own at its public face. */
export interface EventKind<Payload> {
  readonly name: string;
  /** Never set: it carries the payload's type. */
  readonly payload?: Payload;
}

export const eventKind = <Payload>(name: string): EventKind<Payload> => ({ name });

export type EventListener<Payload> = (tx: Tx, payload: Payload) => Promise<void>;

/**
 * Events one feature announces inside the transaction of its change and others follow, so the
 * announcing feature needs to know nothing of who reacts. The app creates one and subscribes
 * the listeners where it is assembled (buildApp), never at import: importing a module then
 * changes nothing, and each app (several per test process) has exactly its own listeners.
 * A listener runs in the change's transaction, so it fails with it.
 */
export class TransactionEvents {
  readonly #listeners = new Map<EventKind<unknown>, Array<EventListener<never>>>();

  on<Payload>(kind: EventKind<Payload>, listener: EventListener<Payload>): void {
    const list = this.#listeners.get(kind) ?? [];
    list.push(listener as EventListener<never>);
    this.#listeners.set(kind, list);
  }

  async announce<Payload>(tx: Tx, kind: EventKind<Payload>, payload: Payload): Promise<void> {
    for (const listener of this.#listeners.get(kind) ?? []) {
      await (listener as EventListener<Payload>)(tx, payload);
    }
  }
}
