import { FRAME_SAMPLES } from '../../../shared/audio-format';

/**
 * Int16 chunk buffers to transfer out of the worklet. Transferring detaches a buffer, so each chunk
 * needs a fresh one: `acquire()` reuses a buffer handed back with `release()` (when the receiver
 * returns it) and otherwise allocates one — at most 10 allocations a second at 100 ms chunks, never
 * per render quantum.
 */
export class ChunkPool {
  readonly samples: number;
  private readonly free: Int16Array[] = [];
  private readonly capacity: number;

  constructor(samples: number = FRAME_SAMPLES, capacity = 8) {
    this.samples = samples;
    this.capacity = capacity;
    for (let k = 0; k < capacity; k++) this.free.push(new Int16Array(samples));
  }

  /** Buffers ready for reuse. */
  get available(): number {
    return this.free.length;
  }

  acquire(): Int16Array {
    return this.free.pop() ?? new Int16Array(this.samples);
  }

  /** Takes back a buffer the receiver transferred back; ignores detached or foreign-sized ones. */
  release(buffer: ArrayBuffer): void {
    if (buffer.byteLength !== this.samples * 2 || this.free.length >= this.capacity) return;
    this.free.push(new Int16Array(buffer));
  }
}
