import type { StateCreator } from 'zustand/vanilla';
import type { HistoryEntry, ScribeApi } from '../../shared/contract';
import type { AppState } from './app-store';

export interface HistorySlice {
  /** The visits of this device, newest first, as main keeps them. */
  history: HistoryEntry[];
  historyError: string | null;
  loadHistory(): Promise<void>;
  receiveHistory(entries: HistoryEntry[]): void;
  /** Shows a visit's results again (main fetches them from the service). */
  reopen(sessionId: string): Promise<void>;
  /** An interrupted visit: main sends the rest of its audio and the note follows, as after End. */
  finishInterrupted(sessionId: string): Promise<void>;
  /** An interrupted visit: its audio is deleted. */
  discardInterrupted(sessionId: string): Promise<void>;
}

export const createHistorySlice =
  (api: ScribeApi): StateCreator<AppState, [], [], HistorySlice> =>
  (set, get) => ({
    history: [],
    historyError: null,
    async loadHistory() {
      try {
        set({ history: (await api.call('history.list')).entries, historyError: null });
      } catch (error) {
        set({ historyError: (error as Error).message });
      }
    },
    receiveHistory: (history) => set({ history }),
    async reopen(sessionId) {
      get().clearResults();
      // Its patient line too (issue 37: Open on the visit already shown dropped it, since the pane's
      // visit did not change and nothing asked main for it again).
      await Promise.all([get().loadResults(sessionId), get().loadPatient(sessionId)]);
    },
    async finishInterrupted(sessionId) {
      get().clearResults();
      try {
        await api.call('history.finish', { sessionId });
        // The results card shows the wait from now, as after End.
        get().expectResults(sessionId);
        set({ historyError: null });
      } catch (error) {
        set({ historyError: (error as Error).message });
      }
    },
    async discardInterrupted(sessionId) {
      try {
        await api.call('history.discard', { sessionId });
        set({ historyError: null });
      } catch (error) {
        set({ historyError: (error as Error).message });
      }
    },
  });

/**
 * A visit whose note is ready and not yet marked finished (issue 29), for the provider signed in:
 * another clinician's visits on this laptop are theirs to finish.
 */
export function isToFinish(entry: HistoryEntry, providerId: string | undefined): boolean {
  return (
    entry.state === 'done' &&
    entry.finishedAt === undefined &&
    (entry.deliverTo === undefined || entry.deliverTo.providerId === providerId)
  );
}

/** How many of this provider's notes are still to go into the EHR. */
export function notesToFinish(state: Pick<AppState, 'history' | 'auth'>): number {
  if (!state.auth?.signedIn) return 0;
  return state.history.filter((entry) => isToFinish(entry, state.auth?.providerId)).length;
}
