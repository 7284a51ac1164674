import { MIN_CHUNK_BYTES, SERVICE_SAMPLE_RATE } from '../../../shared/audio-format';
import { CHUNK_HEADER_BYTES } from '../../../shared/contract/audio-chunk';
import { ChunkPool } from './chunk-pool';
import { Framer } from './framer';
import { toInt16LE } from './int16';
import { Resampler } from './resampler';

/**
 * Receives each finished chunk: `message` is a whole chunk-message buffer (header still blank,
 * Int16 audio after it) to transfer; `index` counts chunks from 0; `inputFrames` is how many input
 * samples had arrived when it completed (the worklet turns that into a capture time); `audioSamples`
 * is how many of its samples are captured audio (1,600, or fewer in a zero-padded final chunk);
 * `final` marks the shorter last chunk `flush()` sends.
 */
export type ChunkSink = (
  message: ArrayBuffer,
  index: number,
  inputFrames: number,
  audioSamples: number,
  final: boolean,
) => void;

/** The service's shortest chunk in samples (20 ms): a shorter final chunk is zero-padded to it. */
export const MIN_FINAL_SAMPLES = MIN_CHUNK_BYTES / 2;

/** Blocks longer than this (a render quantum of 1,600 frames, say) are resampled in parts of this size. */
const MAX_BLOCK = 1_024;

/**
 * Everything the capture worklet does to audio, as plain TypeScript that Node tests can run:
 * resample the device rate to 16 kHz, cut exact 1,600-sample frames, convert to Int16 LE with
 * clipping into a pooled message buffer. After construction, `push()` allocates nothing as long as
 * the receiver hands buffers back with `release()`.
 */
export class CaptureChunker {
  readonly resampler: Resampler;
  private readonly pool: ChunkPool;
  private readonly framer: Framer;
  private readonly scratch: Float32Array;
  private readonly onChunk: ChunkSink;
  private frames = 0;

  constructor(inputRate: number, onChunk: ChunkSink, pool: ChunkPool = new ChunkPool()) {
    this.resampler = new Resampler(inputRate);
    this.pool = pool;
    this.onChunk = onChunk;
    this.scratch = new Float32Array(
      Math.max(this.resampler.maxOutputLength(MAX_BLOCK), this.resampler.maxFlushLength),
    );
    this.framer = new Framer((frame, index) => {
      const samples = this.pool.acquire();
      toInt16LE(frame, samples, frame.length);
      this.onChunk(samples.buffer as ArrayBuffer, index, this.frames, frame.length, false);
    });
  }

  /** Input samples pushed so far. */
  get inputFrames(): number {
    return this.frames;
  }

  /**
   * End of capture: everything still inside goes out. The resampler's last output (the samples
   * waiting for their filter's right half, computed against silence) joins the framer, which may
   * complete a full chunk; what remains is the final, shorter chunk, in a message of its own size.
   * A remainder under 20 ms (the service's smallest chunk) is zero-padded to 20 ms rather than
   * dropped: at most 20 ms of silence after the last word, never a lost word. Returns the number
   * of samples of captured audio in the final chunk (0: nothing was left, no chunk was sent).
   * Allocates the final chunk's buffer (once per capture); nothing may be pushed afterwards.
   *
   * `excessInputFrames`: input pushed after the moment the capture ends (a render that came before
   * End's message was handled). That much is cut from the end of the final chunk, as far as it
   * reaches; audio already sent in a full chunk stays sent.
   */
  flush(excessInputFrames = 0): number {
    const written = this.resampler.flush(this.scratch);
    this.framer.push(this.scratch, written);
    const index = this.framer.frames;
    const excess = Math.round(
      (Math.max(0, excessInputFrames) * SERVICE_SAMPLE_RATE) / this.resampler.inputRate,
    );
    const whole = this.framer.takePartial();
    const partial = whole.subarray(0, Math.max(0, whole.length - excess));
    if (partial.length === 0) return 0;
    const padded = Math.max(partial.length, MIN_FINAL_SAMPLES);
    const message = new ArrayBuffer(CHUNK_HEADER_BYTES + padded * 2);
    // A new buffer is zeros: the padding is already there.
    toInt16LE(partial, new Int16Array(message, CHUNK_HEADER_BYTES, padded), partial.length);
    this.onChunk(message, index, this.frames, partial.length, true);
    return partial.length;
  }

  /** Feeds one block of input samples (any length; split internally if over MAX_BLOCK). */
  push(block: Float32Array, length: number = block.length): void {
    for (let start = 0; start < length; start += MAX_BLOCK) {
      const size = Math.min(MAX_BLOCK, length - start);
      const part = start === 0 && size === block.length ? block : block.subarray(start, start + size);
      this.frames += size;
      const written = this.resampler.process(part, this.scratch, size);
      this.framer.push(this.scratch, written);
    }
  }

  /** Takes back a message buffer the receiver is done with. */
  release(buffer: ArrayBuffer): void {
    this.pool.release(buffer);
  }
}
