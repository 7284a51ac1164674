import type { StateCreator } from 'zustand/vanilla';
import type { PrivacyStatus, ScribeApi } from '../../shared/contract';
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
  /** The window is locked (idle, a restart, a clinician's Sign in who has a PIN); nothing of a patient is in it. */
  locked: boolean;
  /** Main's word on the lock: how it is unlocked, tries left, whether a PIN is still to choose. */
  privacy: PrivacyStatus | null;
  /** This window locked itself after the idle time (the lock screen says so). */
  lockedForIdle: boolean;
  /** Why the last unlock or PIN was refused, in main's sentence. */
  privacyError: string | null;
  /** An unlock or a PIN on its way to main (a PIN check takes a tenth of a second; a sign-in, minutes). */
  privacyBusy: boolean;
  /**
   * The visit on screen when the window locked (its session ID, nothing of the patient): it opens
   * again once unlocked (issue 37: the pane showed an empty next visit instead).
   */
  visitToReturnTo: string | null;
  /** When the next PIN try is taken, on this window's clock (main says how long from its status). */
  pinWaitEndsAt: number | null;
  /** Where the pane goes back to after an unlock or a reload: that visit, asked of main again. */
  returnToVisit(sessionId: string): void;
  /** Clears the results and the next visit's patient details; false while a visit records. */
  forgetPatientDetails(): boolean;
  /** The idle time passed: forget, and show the lock screen (never while recording). */
  lockForIdle(): void;
  /** Unlocking proves who it is: the PIN, a fresh sign-in at the IdP, or nothing (the demo). */
  unlock(proof?: { pin: string } | { signIn: true }): Promise<boolean>;
  /** The PIN that unlocks this window for the clinician signed in; false with privacyError when refused. */
  setPin(pin: string): Promise<boolean>;
  /** Whether main holds the window locked (after a reload, say): the lock screen again if so. */
  loadPrivacy(): Promise<void>;
  receivePrivacy(status: PrivacyStatus): void;
}

export const createPrivacySlice =
  (api: ScribeApi): StateCreator<AppState, [], [], PrivacySlice> =>
  (set, get) => {
    /** The lock on its way to main: an unlock waits for it, or main would lock after it. */
    let locking: Promise<unknown> = Promise.resolve();
    /** One privacy verb: main's answer is the newest status, its refusal the error shown. */
    async function privacyVerb(run: () => Promise<PrivacyStatus>): Promise<boolean> {
      set({ privacyBusy: true, privacyError: null });
      try {
        get().receivePrivacy(await run());
        return true;
      } catch (error) {
        set({ privacyError: (error as Error).message });
        return false;
      } finally {
        set({ privacyBusy: false });
      }
    }

    return {
      locked: false,
      privacy: null,
      lockedForIdle: false,
      privacyError: null,
      privacyBusy: false,
      visitToReturnTo: null,
      pinWaitEndsAt: null,
      forgetPatientDetails() {
        if (RECORDING_STATES.has(get().recorder?.state ?? 'idle')) return false;
        const onScreen = get().resultsFor;
        if (onScreen) set({ visitToReturnTo: onScreen });
        get().clearResults();
        get().nextVisit();
        // Main keeps a visit link's visit for when the window is back in use; this window does not.
        set({ visitLinks: {}, linkedEncounterId: null, waitingLinkId: null });
        return true;
      },
      lockForIdle() {
        if (get().locked || !get().forgetPatientDetails()) return;
        set({ locked: true, lockedForIdle: true, privacyError: null });
        // The note's last keystrokes reach main first: once locked, main keeps no edit.
        locking = get()
          .flushNoteDraft()
          .finally(() =>
            api.call('privacy.lock').then(
              (status) => get().receivePrivacy(status),
              () => undefined,
            ),
          );
      },
      async unlock(proof) {
        // Main unreachable: the window stays locked rather than showing what main would refuse.
        await locking.catch(() => undefined);
        const unlocked = await privacyVerb(() => api.call('privacy.unlock', proof));
        // The last wrong PIN signed the window out: the sign-in beside Start says why, and the visit
        // that was open is not gone back to (it is the next sign-in's to open).
        if (!unlocked && !get().locked) set({ authError: get().privacyError, visitToReturnTo: null });
        // Unlocked by its clinician: the pane goes back to the visit it showed.
        const back = get().visitToReturnTo;
        if (unlocked && back) get().returnToVisit(back);
        return unlocked;
      },
      setPin(pin) {
        return privacyVerb(() => api.call('privacy.setPin', { pin }));
      },
      async loadPrivacy() {
        try {
          get().receivePrivacy(await api.call('privacy.status'));
        } catch {
          // An older main without the lock: the window's own lock is all there is.
        }
      },
      receivePrivacy(status) {
        const wasLocked = get().locked;
        // A new PIN to choose (IT entered the partner token again): the refusal that blocked the
        // old one no longer holds (issue 37: it stayed, in red, on the new-PIN screen).
        const pinNeededNow = status.pinNeeded && get().privacy?.pinNeeded !== true;
        set({
          privacy: status,
          pinWaitEndsAt: status.pinWaitMs ? Date.now() + status.pinWaitMs : null,
          ...(pinNeededNow ? { privacyError: null } : {}),
        });
        if (status.locked && !wasLocked) {
          // A visit recording keeps its screen; the lock shows once it has ended (App.tsx).
          if (!get().forgetPatientDetails()) return;
          set({ locked: true, lockedForIdle: false });
        } else if (!status.locked && wasLocked) {
          set({ locked: false, lockedForIdle: false, privacyError: null });
          void get().loadVisitLinks();
        }
      },
      returnToVisit(sessionId) {
        set({ visitToReturnTo: null });
        // Nothing else took the pane meanwhile (a visit recording, a link's visit, a note opened).
        const taken = get().resultsFor !== null || RECORDING_STATES.has(get().recorder?.state ?? 'idle');
        if (taken || get().locked) {
          if (get().locked) set({ visitToReturnTo: sessionId });
          return;
        }
        void get().reopen(sessionId);
      },
    };
  };
