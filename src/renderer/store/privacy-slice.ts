import type { StateCreator } from 'zustand/vanilla';
import type { AppState } from './app-store';
import { RECORDING_STATES } from './recording-states';

/**
 * A shared exam-room laptop (issue 17): on Sign out, and after the idle time in settings, the
 * window forgets every note, transcript and patient detail it showed; History keeps times,
 * encounters and states only. A visit still recording keeps its own screen.
 */
export interface PrivacySlice {
  /** The window locked itself after a time without use; nothing of a patient is left in it. */
  locked: boolean;
  /** Clears the results and the next visit's patient details; false while a visit records. */
  forgetPatientDetails(): boolean;
  /** The idle time passed: forget, and show the lock screen (never while recording). */
  lockForIdle(): void;
  unlock(): void;
}

export const createPrivacySlice: StateCreator<AppState, [], [], PrivacySlice> = (set, get) => ({
  locked: false,
  forgetPatientDetails() {
    if (RECORDING_STATES.has(get().recorder?.state ?? 'idle')) return false;
    get().clearResults();
    get().nextVisit();
    // Main keeps a visit link's visit for when the window is back in use; this window does not.
    set({ visitLinks: {}, linkedEncounterId: null, waitingLinkId: null });
    return true;
  },
  lockForIdle() {
    if (get().locked || !get().forgetPatientDetails()) return;
    set({ locked: true });
  },
  unlock() {
    set({ locked: false });
    void get().loadVisitLinks();
  },
});
