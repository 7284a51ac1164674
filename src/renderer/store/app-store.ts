import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ScribeApi } from '../../shared/contract';
import { createConnectionSlice, type ConnectionSlice } from './connection-slice';
import { createInfoSlice, type InfoSlice } from './info-slice';
import { createSettingsSlice, type SettingsSlice } from './settings-slice';

export type AppState = InfoSlice & SettingsSlice & ConnectionSlice;
export type AppStore = StoreApi<AppState>;

/** Created outside React (and tested without it); components read it through narrow selectors. */
export function createAppStore(api: ScribeApi): AppStore {
  return createStore<AppState>()((...args) => ({
    ...createInfoSlice(api)(...args),
    ...createSettingsSlice(api)(...args),
    ...createConnectionSlice(...args),
  }));
}

/** Subscribes the store to the contract's events; returns a function that undoes it. */
export function bindAppEvents(store: AppStore, api: ScribeApi, now: () => number = Date.now): () => void {
  return api.on('heartbeat', (beat) => store.getState().receiveHeartbeat(beat, now()));
}
