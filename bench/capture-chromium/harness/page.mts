/**
 * The harness page: opens the (fake) microphone into an AudioContext the way the app's capture
 * does, with or without the capture worklet, and hands the 16 kHz chunks back to the benchmark.
 * A .mts file so the project's Node typecheck (bench/**\/*.ts, no DOM) does not take it in;
 * harness/tsconfig.json checks it with the DOM and Vite's client types.
 */
// `?worker&url` makes Vite bundle the worklet and its imports into one self-contained script
// (the worker build, IIFE by default) and gives its URL: what audioWorklet.addModule() needs.
import workletUrl from '../../../src/renderer/audio/worklet/capture-processor.ts?worker&url';
import {
  CAPTURE_PROCESSOR_NAME,
  type FromCaptureWorklet,
  type ToCaptureWorklet,
} from '../../../src/renderer/audio/worklet/messages';
import { FRAME_SAMPLES } from '../../../src/shared/audio-format';
import { CHUNK_HEADER_BYTES } from '../../../src/shared/contract/audio-chunk';
import type { CaptureConfig, CaptureResult, CaptureStarted, HarnessApi, ProbeResult } from './api';

/** What the app asks for: the raw microphone, no browser processing. */
const MICROPHONE: MediaTrackConstraints = {
  echoCancellation: false,
  noiseSuppression: false,
  autoGainControl: false,
  channelCount: 1,
};

interface Session {
  context: AudioContext;
  stream: MediaStream;
  node: AudioWorkletNode | undefined;
  chunks: Int16Array[];
  lastEndTime: number;
}

let session: Session | undefined;

async function start(config: CaptureConfig): Promise<CaptureStarted> {
  if (session) throw new Error('a capture is already running');
  const context = new AudioContext(config.contextRate ? { sampleRate: config.contextRate } : {});
  // Everything that can be ready before the microphone opens is, so little of the file is missed.
  if (config.worklet) await context.audioWorklet.addModule(workletUrl);
  const stream = await navigator.mediaDevices.getUserMedia({ audio: MICROPHONE });
  const source = context.createMediaStreamSource(stream);
  const current: Session = { context, stream, node: undefined, chunks: [], lastEndTime: 0 };
  if (config.worklet) {
    const node = new AudioWorkletNode(context, CAPTURE_PROCESSOR_NAME, {
      numberOfInputs: 1,
      numberOfOutputs: 0,
      channelCount: 1,
      channelCountMode: 'explicit',
    });
    node.port.onmessage = (event: MessageEvent<FromCaptureWorklet>) => {
      // The bench never flushes, so every message is a full chunk.
      if (event.data.type !== 'chunk') return;
      const { message, endTime } = event.data;
      current.chunks.push(new Int16Array(message, CHUNK_HEADER_BYTES, FRAME_SAMPLES).slice());
      current.lastEndTime = endTime;
      const release: ToCaptureWorklet = { type: 'release', message };
      node.port.postMessage(release, [message]);
    };
    source.connect(node);
    current.node = node;
  } else {
    // A node connected to nothing is never rendered, so the reference routes the microphone
    // through a muted gain to the destination: Web Audio pulls it exactly as it pulls the worklet.
    const mute = new GainNode(context, { gain: 0 });
    source.connect(mute).connect(context.destination);
  }
  await context.resume();
  session = current;
  return { contextRate: context.sampleRate, trackRate: stream.getAudioTracks()[0]?.getSettings().sampleRate };
}

async function stop(): Promise<CaptureResult> {
  const current = session;
  if (!current) throw new Error('no capture running');
  session = undefined;
  const contextTime = current.context.currentTime;
  const halt: ToCaptureWorklet = { type: 'stop' };
  current.node?.port.postMessage(halt);
  for (const track of current.stream.getTracks()) track.stop();
  await current.context.close();
  const samples = new Int16Array(current.chunks.length * FRAME_SAMPLES);
  current.chunks.forEach((chunk, k) => samples.set(chunk, k * FRAME_SAMPLES));
  return {
    samplesBase64: toBase64(new Uint8Array(samples.buffer)),
    chunks: current.chunks.length,
    lastEndTime: current.lastEndTime,
    contextTime,
  };
}

async function probe(): Promise<ProbeResult> {
  const stream = await navigator.mediaDevices.getUserMedia({ audio: MICROPHONE });
  const track = stream.getAudioTracks()[0];
  if (!track) throw new Error('getUserMedia gave no audio track');
  const settings = track.getSettings();
  const delivered = await firstAudioData(track);
  const context = new AudioContext();
  const result: ProbeResult = {
    trackSettings: { sampleRate: settings.sampleRate, channelCount: settings.channelCount },
    deliveredRate: delivered?.sampleRate,
    deliveredFrames: delivered?.numberOfFrames,
    deliveredFormat: delivered?.format ?? undefined,
    defaultContextRate: context.sampleRate,
    defaultContextBaseLatency: context.baseLatency,
  };
  await context.close();
  track.stop();
  return result;
}

/** The first frame the track delivers, read with MediaStreamTrackProcessor where Chromium has it. */
async function firstAudioData(
  track: MediaStreamTrack,
): Promise<{ sampleRate: number; numberOfFrames: number; format: string | null } | undefined> {
  const Processor = (globalThis as { MediaStreamTrackProcessor?: TrackProcessorConstructor })
    .MediaStreamTrackProcessor;
  if (!Processor) return undefined;
  // A clone, so cancelling the processor's stream does not end the track being probed.
  const clone = track.clone();
  const reader = new Processor({ track: clone }).readable.getReader();
  const { value } = await reader.read();
  const frame = value
    ? { sampleRate: value.sampleRate, numberOfFrames: value.numberOfFrames, format: value.format }
    : undefined;
  value?.close();
  await reader.cancel();
  clone.stop();
  return frame;
}

/** Chromium's breakout-box constructor; TypeScript's DOM library does not declare it yet. */
type TrackProcessorConstructor = new (init: { track: MediaStreamTrack }) => {
  readable: ReadableStream<AudioData>;
};

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let k = 0; k < bytes.length; k += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(k, k + 0x8000));
  }
  return btoa(binary);
}

const harness: HarnessApi = { probe, start, stop };
(globalThis as { harness?: HarnessApi }).harness = harness;
