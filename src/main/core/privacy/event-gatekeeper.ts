import { EVENT_GATES } from '../../../shared/contract/gates';
import type { EventHub } from '../event-hub';

/**
 * The events main sends, gated as shared/contract/gates.ts declares (issue 39): while the window
 * is signed out or locked, an event that carries a visit goes to nobody. The router gates the
 * verbs; this gates what main says unasked.
 */
export function gateEvents(hub: EventHub, windowOpen: () => boolean): EventHub {
  return {
    emit(event, payload) {
      if (EVENT_GATES[event] === 'unlocked' && !windowOpen()) return;
      hub.emit(event, payload);
    },
    subscribe: (listener) => hub.subscribe(listener),
  };
}
