import type { Settings } from '../../shared/settings';
import type { InputDevice } from './device-choice';
import type { AudioLevel } from './level-meter';

// The capture session's types, free of DOM types so the store (and its Node tests) can name them.

/** Classifies one 100 ms chunk (the Silero speech detector; see vad/). */
export interface ChunkClassifier {
  classify(chunk: Float32Array): Promise<{ speech: boolean; probability: number }>;
  dispose(): Promise<void>;
}

/** What the recording screen shows about the microphone. */
export interface CaptureStatus {
  state: 'starting' | 'recording' | 'stalled' | 'stopped' | 'failed';
  device?: InputDevice;
  /** Voice detection: loading the model, running, or unavailable (every chunk then counts as speech). */
  voiceDetection: 'loading' | 'ready' | 'unavailable';
  /** Only digital silence for a few seconds: a muted or dead microphone. */
  noSignal: boolean;
  /** A sentence about something the clinician should know (a missing microphone, a failure). */
  notice?: string;
}

export interface CaptureLevel extends AudioLevel {
  speech: boolean;
}

export interface CaptureDeps {
  /** The contract's one-way chunk channel. */
  sendChunk(message: ArrayBuffer): void;
  settings: Pick<Settings, 'microphone' | 'audioProcessing'>;
  loadClassifier(): Promise<ChunkClassifier>;
  onStatus(status: CaptureStatus): void;
  onLevel(level: CaptureLevel): void;
  /** The AudioContext's rate (see capture-graph.ts; default 16 kHz). */
  contextSampleRate?: number | 'device';
  /**
   * Open the microphone before loading the voice model (a visit being rejoined after a reload,
   * where every ms of waiting is audio missing); by default the model loads first.
   */
  microphoneFirst?: boolean;
  /** No chunk for this long = the capture stalled (unplugged, OS sleep). */
  stallMs?: number;
  now?: () => number;
}

export interface CaptureSession {
  /**
   * Turns the microphone off once every chunk is sent. `sendTail` (End): the audio captured since
   * the last full chunk is sent first, as a final, shorter chunk; otherwise (Cancel) it is dropped.
   */
  stop(options?: { sendTail?: boolean }): Promise<void>;
  /** Switches to another microphone mid-recording; the chunk sequence carries on. */
  useMicrophone(microphone: Settings['microphone']): Promise<void>;
  /** Chunks sent to main so far; the next chunk's sequence number. */
  readonly chunksSent: number;
}

/** A running mic check (microphone-check.ts): the level only, nothing recorded or sent. */
export interface MicrophoneCheck {
  /** The device that opened (the default's real name when none was chosen). */
  device: InputDevice;
  /** Set when the remembered microphone was missing and the default opened instead. */
  notice?: string;
  stop(): Promise<void>;
}
