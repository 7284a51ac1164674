/**
 * The VAD harness page: the app's own speech detector (src/renderer/audio/vad/), loaded as the
 * renderer loads it — the bundled Silero v5 model, onnxruntime-web's WebAssembly backend on one
 * thread, no proxy worker, the voice-detection defaults of src/shared/settings.ts — fed the
 * conversation one 512-sample frame per `classify()` call, on the page's main thread as in the app.
 * A .mts file so the project's Node typecheck (bench/**\/*.ts, no DOM) does not take it in;
 * harness/tsconfig.json checks it with the DOM and Vite's client types.
 */
import type { OrtModule } from '@ricky0123/vad-web/dist/models';
import sileroModelUrl from '@ricky0123/vad-web/dist/silero_vad_v5.onnx?url';
import * as ort from 'onnxruntime-web/wasm';
import { loadSpeechDetector } from '../../../src/renderer/audio/vad/load-silero';
import { SILERO_FRAME_SAMPLES, SpeechDetector } from '../../../src/renderer/audio/vad/speech-detector';
import type { Loaded, PacedResult, PassKind, PassResult, VadHarnessApi } from './api';

let frames: Float32Array[] = [];
let silero: SpeechDetector | undefined;
/** The same detector with the speech hold off: what the model cost before issue 40's hold. */
let withoutHold: SpeechDetector | undefined;

async function load(samplesBase64: string): Promise<Loaded> {
  const binary = atob(samplesBase64);
  const bytes = new Uint8Array(binary.length);
  for (let k = 0; k < binary.length; k++) bytes[k] = binary.charCodeAt(k);
  const samples = new Int16Array(bytes.buffer);
  frames = [];
  for (let start = 0; start + SILERO_FRAME_SAMPLES <= samples.length; start += SILERO_FRAME_SAMPLES) {
    const frame = new Float32Array(SILERO_FRAME_SAMPLES);
    // As capture-session.ts turns a chunk's Int16 samples into floats.
    for (let k = 0; k < SILERO_FRAME_SAMPLES; k++) frame[k] = samples[start + k]! / 32_768;
    frames.push(frame);
  }
  const started = performance.now();
  silero = await loadSpeechDetector();
  const loadMs = performance.now() - started;
  // After the app's loader, which sets onnxruntime up as the app does.
  const modelBytes = await (await fetch(sileroModelUrl)).arrayBuffer();
  withoutHold = await SpeechDetector.create({ ort, modelBytes, noSpeechHold: true });
  return { loadMs, frames: frames.length };
}

/**
 * onnxruntime-web with its inference session replaced: each `run` hands back the next of the given
 * probabilities and the state it was given. Everything else is the app's code path — the detector's
 * framing and queue, vad-web's Silero wrapper (the context window, the input tensor) and its
 * FrameProcessor (thresholds, redemption) — taking the same decisions as with the model.
 */
function replayOrt(probabilities: number[]): OrtModule {
  let next = 0;
  const session = {
    run: (inputs: Record<string, unknown>) =>
      Promise.resolve({ stateN: inputs.state, output: { data: [probabilities[next++] ?? 0] } }),
    release: () => Promise.resolve(),
  };
  return { ...ort, InferenceSession: { create: () => Promise.resolve(session) } } as unknown as OrtModule;
}

async function pass(kind: PassKind, probabilities: number[] = []): Promise<PassResult> {
  const detector =
    kind === 'silero'
      ? silero
      : // One replayed probability per frame: the gate's and the hold's frames too, whose answers are
        // among the probabilities given (the model run on fewer frames would take them out of step).
        await SpeechDetector.create({
          ort: replayOrt(probabilities),
          modelBytes: new ArrayBuffer(0),
          noEnergyGate: true,
          noSpeechHold: true,
        });
  if (!detector) throw new Error('load() first');
  // From silence, as at the start of a recording (the model's state and the segment bookkeeping).
  detector.reset();
  const frameMs: number[] = [];
  const speech: boolean[] = [];
  const probability: number[] = [];
  const started = performance.now();
  for (const frame of frames) {
    const before = performance.now();
    const verdict = await detector.classify(frame);
    frameMs.push(performance.now() - before);
    speech.push(verdict.speech);
    probability.push(verdict.probability);
  }
  const totalMs = performance.now() - started;
  if (kind === 'no-model') await detector.dispose();
  return { kind, frameMs, totalMs, speech, probability, timerStepMs: timerStep() };
}

/** A capture chunk: 100 ms at 16 kHz, as the app's worklet sends them. */
const CHUNK_SAMPLES = 1_600;

/**
 * Issue 40: what a frame costs when it comes as a visit brings it. The app wakes its worker ten
 * times a second for three or four frames, and between wakes other work takes the core's caches;
 * back to back the model's code and weights stay warm. Both runs classify the same frames, from
 * silence, one call per frame as pass() does.
 */
async function paced(seconds: number, hold: boolean): Promise<PacedResult> {
  const detector = hold ? silero : withoutHold;
  if (!detector) throw new Error('load() first');
  const chunks = Math.min(
    Math.floor((seconds * 1_000) / 100),
    Math.floor((frames.length * SILERO_FRAME_SAMPLES) / CHUNK_SAMPLES),
  );
  // The frames whose last sample arrives with chunk i.
  const framesOf = (i: number) => {
    const upTo = Math.floor(((i + 1) * CHUNK_SAMPLES) / SILERO_FRAME_SAMPLES);
    const from = Math.floor((i * CHUNK_SAMPLES) / SILERO_FRAME_SAMPLES);
    return frames.slice(from, upTo);
  };
  detector.reset();
  let started = performance.now();
  for (let i = 0; i < chunks; i++) for (const frame of framesOf(i)) await detector.classify(frame);
  const backToBackMs = performance.now() - started;
  detector.reset();
  const modelledBefore = detector.frames.modelled;
  let pacedMs = 0;
  let count = 0;
  for (let i = 0; i < chunks; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    started = performance.now();
    for (const frame of framesOf(i)) {
      await detector.classify(frame);
      count++;
    }
    pacedMs += performance.now() - started;
  }
  return { hold, frames: count, modelled: detector.frames.modelled - modelledBefore, backToBackMs, pacedMs };
}

/** The smallest non-zero step performance.now() takes here. */
function timerStep(): number {
  let smallest = Number.POSITIVE_INFINITY;
  let last = performance.now();
  for (let seen = 0; seen < 50;) {
    const now = performance.now();
    if (now !== last) {
      smallest = Math.min(smallest, now - last);
      last = now;
      seen++;
    }
  }
  return smallest;
}

const api: VadHarnessApi = { load, pass, paced };
(globalThis as { vadHarness?: VadHarnessApi }).vadHarness = api;
