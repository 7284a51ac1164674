import type { Settings } from '../../shared/settings';
import type { CaptureDeps, CaptureSession, MicrophoneCheck } from '../audio/capture-types';
import type { InputDevice } from '../audio/device-choice';
import type { AudioLevel } from '../audio/level-meter';
import type { CallAccess } from './call-sharing';

/** How a visit's capture opens: with the call's sound, or rejoining (after main's answer). */
export type OpenHow = Pick<CaptureDeps, 'microphoneMayOpen' | 'call' | 'onPressNeeded'>;

/** How the store starts the microphone: the real capture in the app, a fake in store tests. */
export type StartCapture = (
  deps: Pick<CaptureDeps, 'sendChunk' | 'settings' | 'onStatus' | 'onLevel' | keyof OpenHow>,
) => Promise<CaptureSession>;

/** The microphones, as the store sees them (the browser's media devices in the app). */
export interface MicrophoneAccess extends CallAccess {
  start: StartCapture;
  /** Audio inputs, without the default alias (labels are blank before permission is granted). */
  listInputs(): Promise<InputDevice[]>;
  /** Calls back when a device is plugged in or out; returns the unsubscribe. */
  onDeviceChange(listener: () => void): () => void;
  /**
   * Opens the microphone as recording will: whether it may be used and is there, asked before a
   * visit is created. Rejects with the sentence to show; resolves with the way to let it go, called
   * once the recording's own microphone is open (the device stays open in between, so it is not
   * started twice).
   */
  ensureAccess(settings: Pick<Settings, 'microphone' | 'audioProcessing'>): Promise<() => void>;
  /**
   * Gets the voice model ready for the next visit now, so its loading (seconds of CPU on a busy
   * laptop) is not in the visit's first seconds (issue 36). Optional: store tests have no model.
   */
  prepareVoiceDetection?(): void;
  /** Opens the microphone for a level check only: nothing is recorded or sent. */
  check(
    settings: Pick<Settings, 'microphone' | 'audioProcessing'>,
    onLevel: (level: AudioLevel) => void,
  ): Promise<MicrophoneCheck>;
}

/** The mic check before a visit: off, or on with the device it opened, or a sentence why not. */
export type MicCheckState =
  | { state: 'off' }
  | { state: 'starting' }
  | { state: 'on'; device: InputDevice; notice?: string }
  | { state: 'failed'; problem: string };
