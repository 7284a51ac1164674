import type { Settings } from '../../shared/settings';
import type { StartCapture } from '../store/recording-slice';
import { startCapture } from './capture-session';
import { loadSpeechDetector } from './vad/load-silero';

/**
 * The app's microphone: capture-session with the Silero speech detector loaded from the app's own
 * files, tuned by the voice-detection settings.
 */
export function createAppCapture(settings: () => Settings | null): StartCapture {
  return (deps) =>
    startCapture({
      ...deps,
      loadClassifier: () => loadSpeechDetector(settings()?.voiceDetection),
    });
}
