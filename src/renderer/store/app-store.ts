import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ScribeApi } from '../../shared/contract';
import { isSignInPageUrl } from '../../shared/sign-in-page';
import { createAuthSlice, type AuthSlice } from './auth-slice';
import { createConnectionSlice, type ConnectionSlice } from './connection-slice';
import { createEncounterSlice, type EncounterSlice } from './encounter-slice';
import { createHistorySlice, type HistorySlice } from './history-slice';
import { createInfoSlice, type InfoSlice } from './info-slice';
import { createNoteSlice, type NoteSlice } from './note-slice';
import { createPrivacySlice, type PrivacySlice } from './privacy-slice';
import type { MicrophoneAccess } from './microphone-access';
import { createRecordingSlice, type RecordingSlice } from './recording-slice';
import { createReplaySlice, type ReplayPlayer, type ReplaySlice } from './replay-slice';
import { createResultsSlice, type ResultsSlice } from './results-slice';
import { createSettingsSlice, type SettingsSlice } from './settings-slice';
import { createVisitLinkSlice, type VisitLinkSlice } from './visit-link-slice';

export type AppState = InfoSlice &
  SettingsSlice &
  ConnectionSlice &
  EncounterSlice &
  RecordingSlice &
  ResultsSlice &
  HistorySlice &
  AuthSlice &
  PrivacySlice &
  VisitLinkSlice &
  NoteSlice &
  ReplaySlice;
export type AppStore = StoreApi<AppState>;

/** Created outside React (and tested without it); components read it through narrow selectors. */
export function createAppStore(
  api: ScribeApi,
  microphones: MicrophoneAccess = noMicrophones,
  player: ReplayPlayer = silentPlayer,
): AppStore {
  return createStore<AppState>()((...args) => ({
    ...createInfoSlice(api)(...args),
    ...createSettingsSlice(api)(...args),
    ...createConnectionSlice(...args),
    ...createEncounterSlice(api)(...args),
    ...createRecordingSlice(api, microphones)(...args),
    ...createResultsSlice(api)(...args),
    ...createHistorySlice(api)(...args),
    ...createAuthSlice(api)(...args),
    ...createPrivacySlice(api)(...args),
    ...createVisitLinkSlice(api)(...args),
    ...createNoteSlice(api)(...args),
    ...createReplaySlice(api, player)(...args),
  }));
}

/** For stores made without a speaker (tests of other slices): nothing plays, and nothing fails. */
const silentPlayer: ReplayPlayer = {
  warm: () => undefined,
  prepare: async () => undefined,
  setRate: () => undefined,
  play: async () => undefined,
  pause: async () => undefined,
  resume: async () => undefined,
  stop: () => undefined,
};

/** For stores made without a microphone (tests of other slices). */
const noMicrophones: MicrophoneAccess = {
  start: () => Promise.reject(new Error('This store has no microphone.')),
  listInputs: async () => [],
  // Access is not this store's question: its start() says there is no microphone.
  ensureAccess: async () => () => undefined,
  onDeviceChange: () => () => undefined,
  check: () => Promise.reject(new Error('This store has no microphone.')),
  shareCall: () => Promise.reject(new Error('This store records no call.')),
};

/**
 * Subscribes the store to the contract's events; returns a function that undoes it. `openUrl`
 * shows main's sign-in page (browser mode: a new tab); without it the sign-in panel offers a link.
 */
export function bindAppEvents(
  store: AppStore,
  api: ScribeApi,
  now: () => number = Date.now,
  openUrl: (url: string) => void = () => undefined,
): () => void {
  const unbind = [
    api.on('auth.changed', (status) => store.getState().receiveAuthStatus(status)),
    api.on('auth.openUrl', ({ url }) => {
      // Main asks for its identity provider's page; anything but https or loopback is not opened.
      if (!isSignInPageUrl(url)) return;
      store.getState().receiveSignInUrl(url);
      openUrl(url);
    }),
    api.on('heartbeat', (beat) => store.getState().receiveHeartbeat(beat, now())),
    api.on('recorder.changed', (view) => store.getState().receiveRecorderView(view)),
    api.on('results.progress', (progress) => store.getState().receiveProgress(progress)),
    api.on('history.changed', ({ entries }) => store.getState().receiveHistory(entries)),
    api.on('visitLinks.changed', (links) => store.getState().receiveVisitLinks(links)),
    api.on('privacy.changed', (status) => store.getState().receivePrivacy(status)),
  ];
  return () => unbind.forEach((off) => off());
}
