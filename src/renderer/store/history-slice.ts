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
      await get().loadResults(sessionId);
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
