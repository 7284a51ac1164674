import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { AppState, AppStore } from './app-store';

export const AppStoreContext = createContext<AppStore | null>(null);

/** Read one narrow slice of app state; components re-render only when it changes. */
export function useAppStore<T>(selector: (state: AppState) => T): T {
  const store = useContext(AppStoreContext);
  if (!store) throw new Error('useAppStore needs an AppStoreContext provider');
  return useStore(store, selector);
}

/** The store itself, for code that follows it outside React's render (the level meter's drawing). */
export function useAppStoreApi(): AppStore {
  const store = useContext(AppStoreContext);
  if (!store) throw new Error('useAppStoreApi needs an AppStoreContext provider');
  return store;
}
