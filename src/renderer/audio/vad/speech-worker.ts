// The voice-detection worker: the Silero model and onnxruntime-web run here, off the page's main
// thread (issue 36). Creating the model kept the main thread busy for 5.8 s beside two other
// tests' Chromiums, up to 13 s when the microphone was already open: chunks waited, the visit's
// clock froze, and until it was made the microphone stayed closed. In a worker the page opens the
// microphone at once and goes on sending chunks while the model loads (flagged as speech until
// then, so nothing is paused away).
import type { Model } from '@ricky0123/vad-web/dist/models';
import type { FromSpeechWorker, ToSpeechWorker } from './speech-worker-messages';
import { loadSileroModel, loadSpeechDetector } from './load-silero';
import { SpeechDetector } from './speech-detector';
import type { SpeechDetectorOptions } from './speech-detector-options';

/** The names of a dedicated worker's scope this file uses (the renderer's types are the page's). */
interface WorkerScope {
  onmessage: ((event: MessageEvent<ToSpeechWorker>) => void) | null;
  postMessage(message: FromSpeechWorker): void;
  close(): void;
}
const scope = self as unknown as WorkerScope;

/**
 * Seconds of noise the warm-up's detector classifies. V8 compiles WebAssembly at its top tier only
 * once a function has run for a while; without this, that compiling (0.8 s of a core at half speed)
 * came in a visit's third second, and the fake microphone it starved filled the audio with zeros.
 */
const WARM_UP_SECONDS = 3;

let detector: Promise<SpeechDetector> | undefined;
/**
 * The next visit's model session, made while nothing records: the warm-up's own, its state cleared,
 * and after each release a new one. Making it at Start took the CPU the microphone needed in the
 * capture's first second (issue 36: a trace at half speed showed V8 compiling the session's code
 * then).
 */
let nextModel: Promise<Model> | undefined;
/** The warm-up ('warm'): onnxruntime's WebAssembly and the model compiled, its session kept. */
let warmed: Promise<unknown> = Promise.resolve();
/**
 * A visit asked for its model ('load'). A visit that starts while the warm-up still runs needs the
 * CPU for its microphone's first seconds: the warm-up stops classifying noise and hands its session
 * over as soon as it is made.
 */
let visitAsked = false;
const answer = (message: FromSpeechWorker) => scope.postMessage(message);
const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Compiles the runtime and the model, runs the model long enough to compile its inference, and
 * keeps the session for the next visit.
 */
async function warmUp(): Promise<void> {
  const model = await loadSileroModel();
  const warm = SpeechDetector.fromModel(model);
  const noise = new Float32Array(1_600);
  for (let chunk = 0; chunk < WARM_UP_SECONDS * 10 && !visitAsked; chunk++) {
    // Loud enough that the energy gate lets every frame through to the model.
    for (let k = 0; k < noise.length; k++) noise[k] = (Math.random() - 0.5) * 0.2;
    await warm.classify(noise);
  }
  // The noise's detector is dropped, not disposed: disposing would release the session. The
  // visit's detector starts the session's state afresh (SpeechDetector.fromModel).
  nextModel = Promise.resolve(model);
}

function makeNextModel(): void {
  nextModel ??= loadSileroModel();
  // A session that failed is made again at load, which then answers for the failure.
  nextModel.catch(() => undefined);
}

/** The visit's detector: on the session made ahead where there is one, else on a new one. */
async function detectorFor(options: SpeechDetectorOptions | undefined): Promise<SpeechDetector> {
  const made = nextModel;
  nextModel = undefined;
  const model = await made?.catch(() => undefined);
  if (!model) return loadSpeechDetector(options);
  try {
    return SpeechDetector.fromModel(model, options);
  } catch (error) {
    await model.release();
    throw error;
  }
}

scope.onmessage = ({ data }) => {
  switch (data.type) {
    case 'warm':
      // A warm-up that failed leaves no session: the visit's load makes one, or says why not.
      warmed = warmUp().catch(() => undefined);
      return;
    case 'load':
      visitAsked = true;
      // After the warm-up, whether it worked or not (a failed one is tried again here).
      detector = warmed.catch(() => undefined).then(() => detectorFor(data.options));
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
      // next visit in this worker only needs a session, made here once this one is let go (the
      // page ends a worker it does not keep).
      const releasing = detector;
      detector = undefined;
      void (releasing ?? Promise.resolve(undefined))
        .then((loaded) => loaded?.dispose())
        .catch(() => undefined)
        .then(() => answer({ type: 'released' }))
        .then(makeNextModel);
      return;
    }
  }
};
