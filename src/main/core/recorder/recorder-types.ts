import { CAPTURE_STALL_MS } from '../../../shared/audio-format';

/**
 * One 100 ms chunk from the renderer's capture pipeline (docs: 16 kHz mono Int16, 3,200 bytes);
 * the capture's final chunk (End) may be shorter, 20–100 ms.
 */
export interface CapturedChunk {
  /** Increases by one per chunk from the start of capture. */
  seq: number;
  /** Renderer clock, ms, when the chunk's first sample was captured. */
  capturedAt: number;
  pcm: Uint8Array;
  /** The VAD's verdict for this chunk. */
  speech: boolean;
  /** The capture's last chunk: the audio since the last full chunk, sent at End. */
  final?: boolean;
  speechProbability?: number;
}

/**
 * A chunk that counts on the visit clock, with where it was captured on it: the visit's elapsed
 * time before the chunk (the recording screen's clock; a manual pause stops it).
 */
export interface VisitChunk extends CapturedChunk {
  visitAtMs: number;
}

/** What the clinician sees the recorder doing (DESIGN.md: state in words). */
export type RecorderState =
  | 'idle'
  | 'connecting'
  | 'streaming'
  /** Paused by the VAD after a stretch without speech (resumes by itself on speech). */
  | 'auto-paused'
  /** Paused by the clinician (privacy); never resumes by itself. */
  | 'paused'
  /** Connection lost, retrying; audio keeps being kept for the service. */
  | 'reconnecting'
  /** The service cannot be reached; audio keeps being kept ("offline — saving locally"). */
  | 'offline'
  /** End pressed: sending what is left, EOF. */
  | 'ending'
  | 'ended'
  | 'cancelled'
  | 'failed';

/** Every duration the recorder uses, in ms (tests shrink them like the sandbox's --time-scale). */
export interface RecorderTiming {
  /** Non-speech this long while streaming → PAUSE (well under the service's 25 s idle rule). */
  autoPauseAfterMs: number;
  /** Audio kept from before a speech onset and sent first after RESUME (at least 500 ms). */
  preRollMs: number;
  /** KEEP_ALIVE cadence while paused (the service wants one at least every 5 s). */
  keepAliveEveryMs: number;
  /** How long a pause may last before the recorder ABORTs the stream (under the 30 min limit). */
  abortPauseAfterMs: number;
  /** No chunk for this long while streaming = capture stalled (mic unplugged, OS sleep) → PAUSE (shared/audio-format.ts). */
  captureStallMs: number;
  /**
   * How long the microphone may take to deliver its first chunk before that counts as a stall: the
   * renderer loads the voice model before it opens the microphone, which takes a second or two.
   */
  captureStartMs: number;
}

export const DEFAULT_RECORDER_TIMING: RecorderTiming = {
  autoPauseAfterMs: 4_000,
  preRollMs: 600,
  keepAliveEveryMs: 2_000,
  abortPauseAfterMs: 29 * 60 * 1000,
  captureStallMs: CAPTURE_STALL_MS,
  captureStartMs: 10_000,
};
