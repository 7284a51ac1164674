import type { Settings } from '../../shared/settings';
import type { MicrophoneAccess } from '../store/microphone-access';
import { openCallAudio } from './call-audio';
import { startCapture } from './capture-session';
import type { ChunkClassifier } from './capture-types';
import { ensureMicrophoneAccess, listInputs } from './microphone';
import { checkMicrophone } from './microphone-check';
import { loadSpeechDetectorInWorker } from './vad/speech-worker-client';
import type { ToSpeechWorker } from './vad/speech-worker-messages';
import SpeechWorker from './vad/speech-worker.ts?worker';

/**
 * The app's microphones: capture-session with the Silero speech detector, loaded from the app's
 * own files in a worker of its own and tuned by the voice-detection settings, the browser's device
 * list, and this computer's sound for a telehealth visit.
 */
export function createAppMicrophones(settings: () => Settings | null): MicrophoneAccess {
  /** The next visit's voice-detection worker, already compiling its model (prepareVoiceDetection). */
  let spare: InstanceType<typeof SpeechWorker> | undefined;
  const warmWorker = () => {
    const worker = new SpeechWorker({ name: 'voice detection' });
    worker.postMessage({ type: 'warm' } satisfies ToSpeechWorker);
    return worker;
  };
  const prepare = () => {
    spare ??= warmWorker();
  };
  const takeWorker = () => {
    const worker = spare ?? warmWorker();
    spare = undefined;
    return worker;
  };
  /** A visit's worker, its model let go: the next visit's, unless one is already waiting. */
  const handBack = (worker: InstanceType<typeof SpeechWorker>) => {
    if (spare) worker.terminate();
    else spare = worker;
  };
  // Each visit has a model of its own (the model is stateful), in the worker the last visit let go
  // (its runtime compiled) or, where that one broke, a new one warmed once this one is let go, so
  // compiling happens between visits, not in the next one's first seconds.
  const loadClassifier = async (): Promise<ChunkClassifier> => {
    const classifier = await loadSpeechDetectorInWorker(
      settings()?.voiceDetection,
      takeWorker,
      handBack,
    ).catch((error: unknown) => {
      prepare();
      throw error;
    });
    return {
      classify: (chunk) => classifier.classify(chunk),
      dispose: () => classifier.dispose().finally(prepare),
    };
  };
  return {
    start: (deps) => startCapture({ ...deps, loadClassifier }),
    prepareVoiceDetection: prepare,
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
