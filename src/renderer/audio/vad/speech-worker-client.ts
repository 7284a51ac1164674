import type { ChunkClassifier } from '../capture-types';
import type { SpeechDetectorOptions } from './speech-detector-options';
import type { FromSpeechWorker, ToSpeechWorker } from './speech-worker-messages';

/** The part of a Worker this client uses (a fake one in unit tests). */
export interface SpeechWorkerPort {
  postMessage(message: ToSpeechWorker, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<FromSpeechWorker>) => void): void;
  addEventListener(type: 'error', listener: (event: Event) => void): void;
  removeEventListener(type: 'message', listener: (event: MessageEvent<FromSpeechWorker>) => void): void;
  removeEventListener(type: 'error', listener: (event: Event) => void): void;
  terminate(): void;
}

/** How long dispose waits for the worker to let go of the model before it is ended. */
const DISPOSE_WAIT_MS = 1_000;

interface Pending {
  resolve(verdict: { speech: boolean; probability: number }): void;
  reject(error: Error): void;
}

/**
 * The voice model in a worker of its own (speech-worker.ts), as the capture's ChunkClassifier:
 * resolves once the model is loaded there, rejects if it cannot be (the capture then counts every
 * chunk as speech). Each chunk is copied and sent; its verdict comes back in the order asked. A
 * worker that breaks later fails the chunks waiting and every later one, never the capture (a
 * failed verdict counts as speech, capture-session.ts).
 *
 * Disposed, the worker lets go of the model and is handed back (`handBack`) for the next visit,
 * which then only makes a session: compiling onnxruntime's WebAssembly again cost about a second
 * of CPU after every visit. A worker that broke, failed to load or did not answer is ended instead.
 */
export function loadSpeechDetectorInWorker<W extends SpeechWorkerPort>(
  options: SpeechDetectorOptions | undefined,
  createWorker: () => W,
  handBack?: (worker: W) => void,
): Promise<ChunkClassifier> {
  const worker = createWorker();
  const pending = new Map<number, Pending>();
  let nextId = 0;
  let broken: Error | undefined;
  let loaded: { resolve(): void; reject(error: Error): void } | undefined;
  let disposed: (() => void) | undefined;
  let released = false;

  const breakDown = (error: Error) => {
    broken ??= error;
    loaded?.reject(error);
    loaded = undefined;
    for (const waiting of pending.values()) waiting.reject(error);
    pending.clear();
    disposed?.();
  };

  const onMessage = ({ data }: MessageEvent<FromSpeechWorker>) => {
    switch (data.type) {
      case 'ready':
        loaded?.resolve();
        loaded = undefined;
        return;
      case 'verdict':
        pending.get(data.id)?.resolve({ speech: data.speech, probability: data.probability });
        pending.delete(data.id);
        return;
      case 'failed':
        if (data.id === undefined)
          return breakDown(new Error(`The voice model did not load: ${data.message}`));
        pending.get(data.id)?.reject(new Error(data.message));
        pending.delete(data.id);
        return;
      case 'released':
        released = true;
        disposed?.();
        return;
    }
  };
  // A worker whose script cannot run, or that throws outside a message: nothing more will come.
  const onError = () => breakDown(new Error('The voice-detection worker stopped'));
  worker.addEventListener('message', onMessage);
  worker.addEventListener('error', onError);

  const classifier: ChunkClassifier = {
    classify(chunk) {
      if (broken) return Promise.reject(broken);
      const id = nextId++;
      const samples = chunk.slice();
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ type: 'classify', id, samples }, [samples.buffer]);
      });
    },
    async dispose() {
      if (!broken) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, DISPOSE_WAIT_MS);
          disposed = () => {
            clearTimeout(timer);
            resolve();
          };
          worker.postMessage({ type: 'release' });
        });
      }
      breakDown(new Error('The voice model was disposed'));
      worker.removeEventListener('message', onMessage);
      worker.removeEventListener('error', onError);
      if (released && handBack) handBack(worker);
      else worker.terminate();
    },
  };

  return new Promise<ChunkClassifier>((resolve, reject) => {
    loaded = { resolve: () => resolve(classifier), reject };
    worker.postMessage({ type: 'load', ...(options ? { options } : {}) });
  }).catch((error: unknown) => {
    worker.terminate();
    throw error;
  });
}
