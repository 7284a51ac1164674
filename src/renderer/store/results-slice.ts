import type { StateCreator } from 'zustand/vanilla';
import type { EventPayload, Results, ScribeApi } from '../../shared/contract';
import type { AppState } from './app-store';

export interface ResultsSlice {
  /** The service's work on the last visit, as main's polling reports it. */
  progress: EventPayload<'results.progress'> | null;
  results: Results | null;
  resultsError: string | null;
  receiveProgress(progress: EventPayload<'results.progress'>): void;
  loadResults(sessionId: string): Promise<void>;
  /** A new visit starts: the last one's results leave the screen. */
  clearResults(): void;
}

export const createResultsSlice =
  (api: ScribeApi): StateCreator<AppState, [], [], ResultsSlice> =>
  (set, get) => ({
    progress: null,
    results: null,
    resultsError: null,
    receiveProgress(progress) {
      set({ progress });
      // Main polls (or hears the webhook); the renderer fetches once, when it is over.
      if (progress.done) void get().loadResults(progress.sessionId);
    },
    async loadResults(sessionId) {
      try {
        set({ results: await api.call('results.get', { sessionId }), resultsError: null });
      } catch (error) {
        set({ resultsError: (error as Error).message });
      }
    },
    clearResults: () => set({ progress: null, results: null, resultsError: null }),
  });
