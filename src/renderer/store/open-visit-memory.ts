import type { StoreApi } from 'zustand/vanilla';
import type { AppState } from './app-store';

/** The session ID of the visit on the pane, kept for the page's next load (sessionStorage). */
const KEY = 'scribe.openVisit';

/**
 * A reload (or the desktop app's renderer restarting) keeps the pane's place (issue 37: it showed
 * an empty next visit, not the note that was open). Only the session ID is kept, in this window's
 * session storage: nothing of the patient, and nothing past the window's life. Main still decides
 * whether it opens: locked, signed out or another clinician's, it does not.
 */
export function keepOpenVisitAcrossReload(store: StoreApi<AppState>, storage: Storage): void {
  store.subscribe((state, before) => {
    const open = state.resultsFor ?? state.visitToReturnTo;
    if (open === (before.resultsFor ?? before.visitToReturnTo)) return;
    // A visit recording is rejoined by itself; the note of one ended is the pane's to keep.
    if (open) storage.setItem(KEY, open);
    else storage.removeItem(KEY);
  });
}

/** The visit that was on the pane before this load, if any (returnToVisit puts it back). */
export function openVisitBeforeLoad(storage: Storage): string | null {
  return storage.getItem(KEY);
}
