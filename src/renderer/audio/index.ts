import type { Settings } from '../../shared/settings';
import type { MicrophoneAccess } from '../store/microphone-access';
import { openCallAudio } from './call-audio';
import { startCapture } from './capture-session';
import { ensureMicrophoneAccess, listInputs } from './microphone';
import { checkMicrophone } from './microphone-check';
import { loadSpeechDetectorInWorker } from './vad/speech-worker-client';
import SpeechWorker from './vad/speech-worker.ts?worker';

/**
 * The app's microphones: capture-session with the Silero speech detector, loaded from the app's own
 * files in a worker of its own and tuned by the voice-detection settings, the browser's device list, and this computer's
 * sound for a telehealth visit.
 */
export function createAppMicrophones(settings: () => Settings | null): MicrophoneAccess {
  return {
    start: (deps) =>
      startCapture({
        ...deps,
        loadClassifier: () =>
          loadSpeechDetectorInWorker(
            settings()?.voiceDetection,
            () => new SpeechWorker({ name: 'voice detection' }),
          ),
      }),
    listInputs,
    ensureAccess: ensureMicrophoneAccess,
    shareCall: openCallAudio,
    check: checkMicrophone,
    onDeviceChange(listener) {
      navigator.mediaDevices?.addEventListener('devicechange', listener);
      return () => navigator.mediaDevices?.removeEventListener('devicechange', listener);
    },
  };
}
