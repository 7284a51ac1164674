import type { CaptureSession, SharedCall } from '../audio/capture-types';

import type { AppState } from './app-store';

/** How the store asks for the call's sound (a part of MicrophoneAccess). */
export interface CallAccess {
  /**
   * Asks for this computer's sound, the call of a telehealth visit (issue 30): the browser's or the
   * system's choice of what to share. Called straight from the clinician's press; rejects with the
   * sentence to show.
   */
  shareCall(): Promise<SharedCall>;
}

/** The recording slice's part about the call's sound of a telehealth visit. */
export interface CallSharingSlice {
  /** The call's sound is being asked for: the clinician is choosing what to share (telehealth). */
  sharingCall: boolean;
  /** The last Start stopped at the call's sound (not shared, or not here): the microphone alone is offered. */
  callNotShared: boolean;
  /**
   * A telehealth visit whose call's sound ended, or was not shared after a reload: asks for it again
   * and mixes it into the recording. Called straight from the clinician's press.
   */
  shareCallAgain(): Promise<void>;
}

export interface CallSharing {
  /** The state and verb the recording slice shows as its own. */
  slice: CallSharingSlice;
  /** Start's question for a telehealth visit: not shared, undefined, and `callNotShared` says so. */
  askAtStart(): Promise<SharedCall | undefined>;
}

/** `capture` is the recording slice's capture of the visit being recorded, as it is now. */
export function createCallSharing(
  set: (state: Partial<Pick<AppState, 'sharingCall' | 'callNotShared' | 'recordingError'>>) => void,
  access: CallAccess,
  capture: () => Promise<CaptureSession | undefined> | undefined,
): CallSharing {
  /**
   * The call's sound, asked for while the window says so (the clinician is choosing what to
   * share); not shared, undefined, and the sentence saying what to do is shown.
   */
  async function askForTheCall(): Promise<SharedCall | undefined> {
    set({ sharingCall: true });
    try {
      return await access.shareCall();
    } catch (error) {
      set({ recordingError: (error as Error).message });
      return undefined;
    } finally {
      set({ sharingCall: false });
    }
  }

  return {
    slice: {
      sharingCall: false,
      callNotShared: false,

      async shareCallAgain() {
        const running = capture();
        if (!running) return;
        const call = await askForTheCall();
        if (!call) return;
        const session = await running;
        // The visit ended while the clinician chose: nothing records the call.
        if (!session || capture() !== running) return call.stop();
        set({ recordingError: null });
        session.useCall(call);
      },
    },

    async askAtStart() {
      const call = await askForTheCall();
      if (!call) set({ callNotShared: true });
      return call;
    },
  };
}
