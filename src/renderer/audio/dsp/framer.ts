import { FRAME_SAMPLES } from '../../../shared/audio-format';

/**
 * Receives each full frame. `frame` is the framer's own buffer, valid only during the call: copy or
 * convert it (e.g. `toInt16LE` into a transferable chunk) before returning. `index` counts frames
 * from 0.
 */
export type FrameHandler = (frame: Float32Array, index: number) => void;

/**
 * Collects samples into exact frames (1,600 samples = 100 ms at 16 kHz by default) across input
 * blocks of any size. The frame buffer is allocated once; `push()` allocates nothing.
 */
export class Framer {
  readonly frameLength: number;
  private readonly frame: Float32Array;
  private readonly onFrame: FrameHandler;
  private filled = 0;
  private count = 0;

  constructor(onFrame: FrameHandler, frameLength: number = FRAME_SAMPLES) {
    if (!Number.isInteger(frameLength) || frameLength <= 0)
      throw new RangeError(`Bad frame length ${frameLength}`);
    this.frameLength = frameLength;
    this.frame = new Float32Array(frameLength);
    this.onFrame = onFrame;
  }

  /** Samples waiting for the next frame. */
  get pending(): number {
    return this.filled;
  }

  /** Frames emitted so far. */
  get frames(): number {
    return this.count;
  }

  /** Appends `samples[0 … length)`, emitting every frame that fills up, in order. */
  push(samples: Float32Array, length: number = samples.length): void {
    const frame = this.frame;
    const size = this.frameLength;
    let read = 0;
    while (read < length) {
      const take = Math.min(size - this.filled, length - read);
      for (let k = 0; k < take; k++) frame[this.filled + k] = samples[read + k]!;
      this.filled += take;
      read += take;
      if (this.filled === size) {
        this.filled = 0;
        this.onFrame(frame, this.count++);
      }
    }
  }

  /**
   * Hands over the partial frame (the samples since the last full one) and starts empty: the
   * returned view is the framer's own buffer, valid until the next `push()`. The frame index is
   * not advanced (nothing more follows a capture's last frame).
   */
  takePartial(): Float32Array {
    const partial = this.frame.subarray(0, this.filled);
    this.filled = 0;
    return partial;
  }

  /** Drops a partial frame (a new stream starts); the frame index carries on. */
  clear(): void {
    this.filled = 0;
  }
}
