// The voice-detection worker: the Silero model and onnxruntime-web run here, off the page's main
// thread (issue 36). Creating the model kept the main thread busy for 5.8 s beside two other
// tests' Chromiums, up to 13 s when the microphone was already open: chunks waited, the visit's
// clock froze, and until it was made the microphone stayed closed. In a worker the page opens the
// microphone at once and goes on sending chunks while the model loads (flagged as speech until
// then, so nothing is paused away).
import type { FromSpeechWorker, ToSpeechWorker } from './speech-worker-messages';
import { loadSpeechDetector } from './load-silero';
import type { SpeechDetector } from './speech-detector';

/** The names of a dedicated worker's scope this file uses (the renderer's types are the page's). */
interface WorkerScope {
  onmessage: ((event: MessageEvent<ToSpeechWorker>) => void) | null;
  postMessage(message: FromSpeechWorker): void;
  close(): void;
}
const scope = self as unknown as WorkerScope;

let detector: Promise<SpeechDetector> | undefined;
/**
 * A detector made and let go as soon as the worker starts ('warm'): it compiles onnxruntime's
 * WebAssembly and the model, seconds of CPU on a busy laptop, while nothing records. The visit's
 * own detector ('load') then only makes its session.
 */
let warmed: Promise<unknown> = Promise.resolve();
const answer = (message: FromSpeechWorker) => scope.postMessage(message);
const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

scope.onmessage = ({ data }) => {
  switch (data.type) {
    case 'warm':
      warmed = loadSpeechDetector().then((warm) => warm.dispose());
      return;
    case 'load':
      // After the warm-up, whether it worked or not (a failed one is tried again here).
      detector = warmed.catch(() => undefined).then(() => loadSpeechDetector(data.options));
      detector.then(
        () => answer({ type: 'ready' }),
        (error: unknown) => answer({ type: 'failed', message: reason(error) }),
      );
      return;
    case 'classify':
      // The detector queues its work in call order, and messages arrive in the order sent.
      void detector!
        .then((loaded) => loaded.classify(data.samples))
        .then(
          ({ speech, probability }) => answer({ type: 'verdict', id: data.id, speech, probability }),
          (error: unknown) => answer({ type: 'failed', id: data.id, message: reason(error) }),
        );
      return;
    case 'release': {
      // The model's state goes with its session; onnxruntime's compiled WebAssembly stays, so the
      // next visit in this worker only makes a session (the page ends a worker it does not keep).
      const releasing = detector;
      detector = undefined;
      void (releasing ?? Promise.resolve(undefined))
        .then((loaded) => loaded?.dispose())
        .catch(() => undefined)
        .then(() => answer({ type: 'released' }));
      return;
    }
  }
};
