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
  });
