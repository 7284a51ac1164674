/** The name the capture processor registers under (worklet) and is created by (capture). */
export const CAPTURE_PROCESSOR_NAME = 'scribe-capture';

/** Worklet → renderer. */
export interface CaptureChunkMessage {
  type: 'chunk';
  /** Counts chunks from 0 since this worklet started. */
  index: number;
  /** A whole chunk message (audio-chunk.ts), header blank, transferred. */
  message: ArrayBuffer;
  /** Seconds of input received when the chunk completed (context time of its last sample). */
  endTime: number;
}
export type FromCaptureWorklet = CaptureChunkMessage;

/** Renderer → worklet: hand a buffer back for reuse, or stop processing. */
export type ToCaptureWorklet = { type: 'release'; message: ArrayBuffer } | { type: 'stop' };
