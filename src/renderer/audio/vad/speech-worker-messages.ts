import type { SpeechDetectorOptions } from './speech-detector-options';

/** What the page asks of the voice-detection worker (speech-worker.ts). */
export type ToSpeechWorker =
  /** Compile the runtime and the model now, before any visit needs them (answered by nothing). */
  | { type: 'warm' }
  | { type: 'load'; options?: SpeechDetectorOptions }
  /** One chunk's samples in [−1, 1], transferred; answered by a verdict with the same id. */
  | { type: 'classify'; id: number; samples: Float32Array }
  /** Let go of the model; the worker, its runtime compiled, stays for the next visit (or is ended). */
  | { type: 'release' };

/** What the worker answers, in the order it was asked. */
export type FromSpeechWorker =
  | { type: 'ready' }
  | { type: 'verdict'; id: number; speech: boolean; probability: number }
  /** The model could not load (id absent), or one chunk could not be classified. */
  | { type: 'failed'; id?: number; message: string }
  | { type: 'released' };
