// The browser's way to build a SpeechDetector: onnxruntime-web and the Silero model from files Vite
// bundles next to the app, never from a CDN (the CSP allows only 'self', and the app must work offline).
import sileroModelUrl from '@ricky0123/vad-web/dist/silero_vad_v5.onnx?url';
import ortWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.wasm?url';
import { Silero, type Model } from '@ricky0123/vad-web/dist/models';
import * as ort from 'onnxruntime-web/wasm';
import { SpeechDetector } from './speech-detector';
import { DEFAULT_SPEECH_DETECTOR_OPTIONS, type SpeechDetectorOptions } from './speech-detector-options';

/**
 * Settings that must be in place before the first session is created.
 *
 * - One thread, no proxy: more threads would start workers from blob: or cross-origin-isolated URLs
 *   (the CSP's worker-src 'self' forbids the first, the app is not isolated), and a 512-sample frame
 *   takes well under a millisecond anyway.
 * - Only the .wasm path is overridden. This build of ORT embeds its JavaScript loader (the .mjs), and
 *   uses the embedded one when the .wasm is overridden and there is one thread, so no module is
 *   imported at run time; left alone, ORT would look for the .wasm beside its own script, which in
 *   a Vite dev server is the pre-bundled dependency's folder.
 */
function configureOrt(): void {
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.proxy = false;
  ort.env.wasm.wasmPaths = { wasm: ortWasmUrl };
}

async function modelBytes(): Promise<ArrayBuffer> {
  const response = await fetch(sileroModelUrl);
  if (!response.ok) throw new Error(`Could not load the speech model (HTTP ${response.status})`);
  return response.arrayBuffer();
}

/** Loads the model bundled with the app and returns a ready detector. */
export async function loadSpeechDetector(
  options: SpeechDetectorOptions = DEFAULT_SPEECH_DETECTOR_OPTIONS,
): Promise<SpeechDetector> {
  configureOrt();
  return SpeechDetector.create({ ort, modelBytes: await modelBytes(), options });
}

/**
 * A session of the bundled model, not yet used: the costly part of a detector, made ahead of the
 * visit that will use it (`SpeechDetector.fromModel`).
 */
export async function loadSileroModel(): Promise<Model> {
  configureOrt();
  const bytes = await modelBytes();
  return Silero.new(ort, () => Promise.resolve(bytes));
}
