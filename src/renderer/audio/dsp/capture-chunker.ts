import { ChunkPool } from './chunk-pool';
import { Framer } from './framer';
import { toInt16LE } from './int16';
import { Resampler } from './resampler';

/**
 * Receives each finished chunk: `message` is a whole chunk-message buffer (header still blank,
 * Int16 audio after it) to transfer; `index` counts chunks from 0; `inputFrames` is how many input
 * samples had arrived when it completed (the worklet turns that into a capture time).
 */
export type ChunkSink = (message: ArrayBuffer, index: number, inputFrames: number) => void;

/** The longest render block the worklet expects (Web Audio's render quantum is 128). */
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
  private inputFrames = 0;

  constructor(inputRate: number, onChunk: ChunkSink, pool: ChunkPool = new ChunkPool()) {
    this.resampler = new Resampler(inputRate);
    this.pool = pool;
    this.onChunk = onChunk;
    this.scratch = new Float32Array(this.resampler.maxOutputLength(MAX_BLOCK));
    this.framer = new Framer((frame, index) => {
      const samples = this.pool.acquire();
      toInt16LE(frame, samples, frame.length);
      this.onChunk(samples.buffer as ArrayBuffer, index, this.inputFrames);
    });
  }

  /** Feeds one block of input samples (any length; split internally if over MAX_BLOCK). */
  push(block: Float32Array, length: number = block.length): void {
    for (let start = 0; start < length; start += MAX_BLOCK) {
      const size = Math.min(MAX_BLOCK, length - start);
      const part = start === 0 && size === block.length ? block : block.subarray(start, start + size);
      this.inputFrames += size;
      const written = this.resampler.process(part, this.scratch, size);
      this.framer.push(this.scratch, written);
    }
  }

  /** Takes back a message buffer the receiver is done with. */
  release(buffer: ArrayBuffer): void {
    this.pool.release(buffer);
  }
}
