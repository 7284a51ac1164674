import type { StateCreator } from 'zustand/vanilla';
import type { AppInfo, ScribeApi } from '../../shared/contract';
import type { AppState } from './app-store';

export interface InfoSlice {
  appInfo: AppInfo | null;
  infoError: string | null;
  loadAppInfo(): Promise<void>;
}

export const createInfoSlice =
  (api: ScribeApi): StateCreator<AppState, [], [], InfoSlice> =>
  (set) => ({
    appInfo: null,
    infoError: null,
    async loadAppInfo() {
      try {
        set({ appInfo: await api.call('app.info'), infoError: null });
      } catch (error) {
        set({ infoError: (error as Error).message });
      }
    },
  });
