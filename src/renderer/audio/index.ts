import type { Settings } from '../../shared/settings';
import type { MicrophoneAccess } from '../store/recording-slice';
import { startCapture } from './capture-session';
import { listInputs, openMicrophone } from './microphone';
import { checkMicrophone } from './microphone-check';
import { loadSpeechDetector } from './vad/load-silero';

/**
 * The app's microphones: capture-session with the Silero speech detector loaded from the app's own
 * files and tuned by the voice-detection settings, and the browser's device list.
 */
export function createAppMicrophones(settings: () => Settings | null): MicrophoneAccess {
  return {
    start: (deps) =>
      startCapture({
        ...deps,
        loadClassifier: () => loadSpeechDetector(settings()?.voiceDetection),
      }),
    listInputs,
    async ensureAccess(choice) {
      // Held open until the recording's own stream is: the device is not stopped and started
      // again in between (a real device takes a moment to start; the recording opens it as before).
      const { track } = await openMicrophone(choice);
      return () => track.stop();
    },
    check: checkMicrophone,
    onDeviceChange(listener) {
      navigator.mediaDevices?.addEventListener('devicechange', listener);
      return () => navigator.mediaDevices?.removeEventListener('devicechange', listener);
    },
  };
}
