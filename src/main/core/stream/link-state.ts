import type { Logger } from '../ports';
import type { StreamLinkChange, StreamLinkState } from './stream-port';

export interface LinkState {
  readonly current: StreamLinkChange;
  /** Reports a change; the same state twice in a row is reported once (the first reason wins). */
  set(state: StreamLinkState, closeCode?: number, reason?: string): void;
  subscribe(listener: (change: StreamLinkChange) => void): () => void;
}

/** The link state the recorder and the UI watch, with listeners isolated from each other. */
export function createLinkState(log: Logger, sessionId: string): LinkState {
  let current: StreamLinkChange = { state: 'closed', reason: 'not connected' };
  const listeners = new Set<(change: StreamLinkChange) => void>();
  return {
    get current() {
      return current;
    },
    set(state, closeCode, reason) {
      if (state === current.state) return;
      current = {
        state,
        ...(closeCode !== undefined ? { closeCode } : {}),
        ...(reason !== undefined ? { reason } : {}),
      };
      log.info('stream link', { sessionId, ...current });
      for (const listener of [...listeners]) {
        try {
          listener(current);
        } catch (error) {
          // One listener's bug must not stop the others or the stream client itself.
          log.error('stream link listener failed', { error: String(error) });
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
