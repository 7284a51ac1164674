import type { EventName, EventPayload } from '../../shared/contract';

export type EventListener = <E extends EventName>(event: E, payload: EventPayload<E>) => void;

/** Fan-out of contract events from the core to every connected transport (IPC window, sockets). */
export interface EventHub {
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void;
  subscribe(listener: EventListener): () => void;
}

export function createEventHub(): EventHub {
  const listeners = new Set<EventListener>();
  return {
    emit(event, payload) {
      for (const listener of listeners) listener(event, payload);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
