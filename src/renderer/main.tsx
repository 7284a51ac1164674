// First, so window.open is refused before any other module runs (see open-page.ts).
import { openSignInTab } from './api/open-page';
// Then zod without eval, before anything parses.
import './zod-under-csp';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { connectScribeApi } from './api/connect';
import { App } from './App';
import { createAppMicrophones } from './audio';
import { bindAppEvents, createAppStore } from './store/app-store';
import { AppStoreContext } from './store/use-app-store';
import './styles.css';

const { api, onLinkState } = connectScribeApi();
const store = createAppStore(
  api,
  createAppMicrophones(() => store.getState().settings),
);
bindAppEvents(store, api, Date.now, openSignInTab);
onLinkState((link) => {
  store.getState().setLink(link);
  // After a reconnect the core may have restarted: read its state again.
  if (link === 'connected') {
    void store.getState().loadAppInfo();
    // Main may hold the window locked (a reload after the idle lock): the lock screen again.
    void store.getState().loadPrivacy();
    // Sign-in after settings: whether to sign in by itself depends on them.
    const settingsLoaded = store.getState().loadSettings();
    void settingsLoaded.then(() => store.getState().loadAuth());
    // A visit main is still recording (this window reloaded mid-visit) carries on here; a visit
    // link that came meanwhile waits for it (so it is read once the recorder is known).
    void store
      .getState()
      .rejoinRecording(settingsLoaded)
      .finally(() => store.getState().loadVisitLinks());
  }
});

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <AppStoreContext.Provider value={store}>
      <App />
    </AppStoreContext.Provider>
  </StrictMode>,
);
