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
  /** 'finishing': End is waiting for the last of the audio heard before the press (capture-graph.ts). */
  state: 'starting' | 'recording' | 'stalled' | 'finishing' | 'stopped' | 'failed';
  device?: InputDevice;
  /** Voice detection: loading the model, running, or unavailable (every chunk then counts as speech). */
  voiceDetection: 'loading' | 'ready' | 'unavailable';
  /** Only digital silence for a few seconds: a muted or dead microphone. */
  noSignal: boolean;
  /** A sentence about something the clinician should know (a missing microphone, a failure). */
  notice?: string;
  /**
   * A telehealth visit's call (issue 30): its sound is being recorded, it ended (recording goes on
   * from the microphone), or it was not shared (the window reloaded mid-visit). Absent in the room.
   */
  call?: CallState;
  /** The microphone hears the call (speakers, not a headset): call-echo.ts. Telehealth only. */
  callEcho?: boolean;
}

export type CallState = 'recording' | 'ended' | 'not-shared';

/** The call's sound as the store passes it on (call-audio.ts's CallAudio is the browser's side). */
export interface SharedCall {
  readonly label: string;
  stop(): void;
}

/**
 * One chunk's levels for the meter: the microphone's (in the room, the chunk's own), whether the
 * chunk is speech, and in a telehealth visit the call's (null while the call is not mixed).
 */
export interface CaptureLevel extends AudioLevel {
  speech: boolean;
  call?: AudioLevel | null;
}

export interface CaptureDeps {
  /** The contract's one-way chunk channel. */
  sendChunk(message: ArrayBuffer): void;
  /** visitAudio 'telehealth': the call's sound is mixed in (`call`, or shared later with useCall). */
  settings: Pick<Settings, 'microphone' | 'audioProcessing' | 'visitAudio'>;
  /** The call's sound, shared at Start (telehealth); the recording stops it when it stops. */
  call?: SharedCall;
  loadClassifier(): Promise<ChunkClassifier>;
  onStatus(status: CaptureStatus): void;
  onLevel(level: CaptureLevel): void;
  /** The AudioContext's rate (see capture-graph.ts; default 16 kHz). */
  contextSampleRate?: number | 'device';
  /**
   * The microphone opens once this is fulfilled (a rejoin: main must first hear that the new
   * capture numbers from 0); the rest of the graph gets ready meanwhile. Rejected: none opens.
   */
  microphoneMayOpen?: Promise<unknown>;
  /** The browser needs a press on the page before the audio can start (capture-graph.ts). */
  onPressNeeded?(start: () => Promise<void>): void;
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
  /** Mixes a call shared mid-recording (telehealth), in place of one that ended or was not shared. */
  useCall(call: SharedCall): void;
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
