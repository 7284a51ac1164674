// The recorded visit and the real Silero model, for the speech detector's tests.
import modelUrl from '@ricky0123/vad-web/dist/silero_vad_v5.onnx?url&inline';
import * as ort from 'onnxruntime-web/wasm';
import { expect } from 'vitest';
import fixture from '../../../../e2e/fixtures/conversation.turns.json';
import wavUrl from '../../../../e2e/fixtures/conversation.wav?inline';
import { FRAME_SAMPLES, SERVICE_SAMPLE_RATE } from '../../../shared/audio-format';
import type { ChunkVerdict, SpeechDetector } from './speech-detector';

// Renderer tests may not import Node modules (eslint.config.js, tsconfig.web.json), so the model and
// the recording arrive as Vite data: URLs and are read with fetch — the same bytes fs would give.
// onnxruntime-web itself runs here on its WebAssembly backend, exactly as in the renderer.

export const CHUNK_MS = (FRAME_SAMPLES * 1000) / SERVICE_SAMPLE_RATE;
/**
 * A pass over the whole visit takes about a second on a 2-core machine; the default 10 s hook limit is
 * too close when the machine is busy with other work.
 */
export const HEAVY_MS = 60_000;
/** The fixture's turn times are checked against its audio only to within this (conversation-fixture.test.ts). */
export const FIXTURE_TOLERANCE_MS = 150;

async function bytesOf(dataUrl: string): Promise<ArrayBuffer> {
  return (await fetch(dataUrl)).arrayBuffer();
}

/** 16 kHz mono 16-bit PCM WAV → samples in [−1, 1], walking the RIFF chunks rather than assuming 44 bytes. */
function decodeWav(bytes: ArrayBuffer): Float32Array {
  const view = new DataView(bytes);
  const tag = (at: number) => String.fromCharCode(...new Uint8Array(bytes, at, 4));
  expect(tag(0) + tag(8)).toBe('RIFFWAVE');
  let at = 12;
  while (at + 8 <= view.byteLength) {
    const size = view.getUint32(at + 4, true);
    if (tag(at) === 'fmt ') {
      expect(view.getUint16(at + 8, true), 'PCM').toBe(1);
      expect(view.getUint16(at + 10, true), 'channels').toBe(1);
      expect(view.getUint32(at + 12, true), 'sample rate').toBe(SERVICE_SAMPLE_RATE);
      expect(view.getUint16(at + 22, true), 'bits').toBe(16);
    } else if (tag(at) === 'data') {
      const samples = new Float32Array(size / 2);
      for (let k = 0; k < samples.length; k++) samples[k] = view.getInt16(at + 8 + 2 * k, true) / 32_768;
      return samples;
    }
    at += 8 + size + (size % 2);
  }
  throw new Error('no data chunk');
}

/** Feeds `signal` in blocks cycling through `sizes`, one call at a time. */
export async function classifyInBlocks(
  vad: SpeechDetector,
  signal: Float32Array,
  sizes: number[],
): Promise<{ verdicts: ChunkVerdict[]; ends: number[] }> {
  const verdicts: ChunkVerdict[] = [];
  const ends: number[] = [];
  for (let read = 0, b = 0; read < signal.length; b++) {
    const size = Math.min(sizes[b % sizes.length]!, signal.length - read);
    verdicts.push(await vad.classify(signal.subarray(read, read + size)));
    read += size;
    ends.push(read);
  }
  return { verdicts, ends };
}

/** The Silero model's bytes and the conversation fixture's samples in [−1, 1]; onnxruntime on one thread. */
export async function loadVisitRecording(): Promise<{ modelBytes: ArrayBuffer; recording: Float32Array }> {
  // One thread: no worker, as in the renderer (load-silero.ts).
  ort.env.wasm.numThreads = 1;
  const modelBytes = await bytesOf(modelUrl);
  const recording = decodeWav(await bytesOf(wavUrl));
  expect(Math.abs((recording.length / SERVICE_SAMPLE_RATE) * 1000 - fixture.totalMs)).toBeLessThan(2);
  return { modelBytes, recording };
}

/** Each turn's onset as the chunked flag saw it (see the onset test for what the number means). */
export function onsets(verdicts: ChunkVerdict[]): { startMs: number; lateMs: number; carried: boolean }[] {
  return fixture.turns.map((turn) => {
    const onsetChunk = Math.floor(turn.startMs / CHUNK_MS);
    const first = verdicts.findIndex((v, k) => k >= onsetChunk && v.speech);
    return {
      startMs: turn.startMs,
      lateMs: first < 0 ? Number.POSITIVE_INFINITY : first * CHUNK_MS - turn.startMs,
      // Already flagged just before the onset: the redemption bridged the gap from the turn before.
      carried: verdicts[onsetChunk - 1]?.speech === true,
    };
  });
}

export function describeOnsets(list: ReturnType<typeof onsets>): string {
  return list.map((o) => `${o.startMs} ms: ${o.lateMs} ms${o.carried ? ' (carried over)' : ''}`).join(', ');
}
