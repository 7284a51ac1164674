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
  /** Samples of captured audio in it: 1,600, or fewer in the final chunk (zero-padded to 20 ms). */
  audioSamples: number;
  /** The last chunk, sent on 'flush': what was captured since the last full chunk. */
  final: boolean;
}
/** Worklet → renderer: the answer to 'flush', after the final chunk (if any audio was left). */
export interface CaptureFlushedMessage {
  type: 'flushed';
}
export type FromCaptureWorklet = CaptureChunkMessage | CaptureFlushedMessage;

/**
 * Renderer → worklet: hand buffers back for reuse (several at a time: a message to the worklet's
 * thread costs the page's thread about 0.2 ms, whatever it carries); flush (End: take input up to
 * frame `untilFrame` of the capture, the audio the microphone delivered up to the press, part of which
 * may still be in the capture path; drop any input past it that is not sent yet; then send what was
 * captured since the last full chunk as a final, shorter chunk, and nothing more; `null`: the capture
 * clock does not know yet, or the drain took too long: send what is there now, none of it cut; a
 * second flush moves the end to it); or stop processing.
 */
export type ToCaptureWorklet =
  | { type: 'release'; messages: ArrayBuffer[] }
  | { type: 'flush'; untilFrame: number | null }
  | { type: 'stop' };
