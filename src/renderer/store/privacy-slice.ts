import type { StateCreator } from 'zustand/vanilla';
import type { ScribeApi } from '../../shared/contract';
import type { AppState } from './app-store';
import { RECORDING_STATES } from './recording-states';

/**
 * A shared exam-room laptop (issue 17): on Sign out, and after the idle time in settings, the
 * window forgets every note, transcript and patient detail it showed; History keeps times,
 * encounters and states only. A visit still recording keeps its own screen. Main holds the lock
 * too (issue 29): until it is unlocked, main opens nothing of a visit and calls the service for
 * nobody, whatever a reload or another tab asks.
 */
export interface PrivacySlice {
  /** The window locked itself after a time without use; nothing of a patient is left in it. */
  locked: boolean;
  /** Clears the results and the next visit's patient details; false while a visit records. */
  forgetPatientDetails(): boolean;
  /** The idle time passed: forget, and show the lock screen (never while recording). */
  lockForIdle(): void;
  unlock(): Promise<void>;
  /** Whether main holds the window locked (after a reload, say): the lock screen again if so. */
  loadPrivacy(): Promise<void>;
}

export const createPrivacySlice =
  (api: ScribeApi): StateCreator<AppState, [], [], PrivacySlice> =>
  (set, get) => ({
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
      // The note's last keystrokes reach main first: once locked, main keeps no edit.
      void get()
        .flushNoteDraft()
        .finally(() => api.call('privacy.lock').catch(() => undefined));
    },
    async unlock() {
      try {
        await api.call('privacy.unlock');
      } catch {
        // Main unreachable: the window stays locked rather than showing what main would refuse.
        return;
      }
      set({ locked: false });
      void get().loadVisitLinks();
    },
    async loadPrivacy() {
      try {
        if ((await api.call('privacy.status')).locked && get().forgetPatientDetails()) set({ locked: true });
      } catch {
        // An older main without the lock: the window's own lock is all there is.
      }
    },
  });
