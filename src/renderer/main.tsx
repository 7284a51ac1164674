// First, so window.open is refused before any other module runs (see open-page.ts).
import { openSignInTab } from './api/open-page';
// Then zod without eval, before anything parses.
import './zod-under-csp';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { connectScribeApi } from './api/connect';
import { App } from './App';
import { createAppMicrophones } from './audio';
import { createReplayPlayer } from './audio/replay/replay-player';
import { setShownByMain } from './screen/window-shown';
import { bindAppEvents, createAppStore } from './store/app-store';
import { keepOpenVisitAcrossReload, openVisitBeforeLoad } from './store/open-visit-memory';
import { AppStoreContext } from './store/use-app-store';
import './styles.css';

const { api, onLinkState } = connectScribeApi();
const microphones = createAppMicrophones(() => store.getState().settings);
const store = createAppStore(api, microphones, createReplayPlayer());
// The voice model compiles in its worker as the window loads: a clinician may press Start, or a
// reload rejoin its visit, a moment after the window shows, and a compile still running then
// competes with the capture's first seconds (issue 36; the Ready pane asks too, for later visits).
microphones.prepareVoiceDetection?.();
bindAppEvents(store, api, Date.now, openSignInTab);
// The desktop shell says when its window is minimised (it is never hidden to Chromium there).
api.on('window.shown', ({ shown }) => setShownByMain(shown));
// The visit on the pane before this load (a reload), read before anything of this load changes it.
let openBeforeReload = openVisitBeforeLoad(sessionStorage);
keepOpenVisitAcrossReload(store, sessionStorage);
onLinkState((link) => {
  store.getState().setLink(link);
  // After a reconnect the core may have restarted: read its state again.
  if (link === 'connected') {
    void store.getState().loadAppInfo();
    // Main may hold the window locked (a reload after the idle lock): the lock screen again.
    const privacyKnown = store.getState().loadPrivacy();
    // Sign-in after settings: whether to sign in by itself depends on them.
    const settingsLoaded = store.getState().loadSettings();
    void settingsLoaded.then(() => store.getState().loadAuth());
    // A visit main is still recording (this window reloaded mid-visit) carries on here; a visit
    // link that came meanwhile waits for it (so it is read once the recorder is known).
    void store
      .getState()
      .rejoinRecording(settingsLoaded)
      .finally(() => store.getState().loadVisitLinks());
    // The note that was open before the reload, once main says whether the window is locked.
    const returnTo = openBeforeReload;
    openBeforeReload = null;
    if (returnTo) void privacyKnown.then(() => store.getState().returnToVisit(returnTo));
  }
});

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <AppStoreContext.Provider value={store}>
      <App />
    </AppStoreContext.Provider>
  </StrictMode>,
);
