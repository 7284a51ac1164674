import { FRAME_SAMPLES } from '../../../shared/audio-format';
import { CHUNK_HEADER_BYTES } from '../../../shared/contract/audio-chunk';

/**
 * Chunk message buffers to transfer out of the worklet. Each buffer is a whole chunk message
 * (audio-chunk.ts): the worklet writes Int16 samples after the header, and the renderer fills the
 * header in and sends the same buffer on, so audio is never copied on its way to the transport.
 *
 * Transferring detaches a buffer, so each chunk needs a fresh one: `acquire()` reuses a buffer
 * handed back with `release()` (when the receiver returns it) and otherwise allocates one — at most
 * 10 allocations a second at 100 ms chunks, never per render quantum. Twelve are made up front: the
 * renderer hands them back five at a time (capture-graph.ts), so about six are away at once.
 */
export class ChunkPool {
  readonly samples: number;
  readonly headerBytes: number;
  // Views, not bare buffers, so acquire() (called from process()) allocates nothing.
  private readonly free: Int16Array[] = [];
  private readonly capacity: number;

  constructor(samples: number = FRAME_SAMPLES, capacity = 12, headerBytes: number = CHUNK_HEADER_BYTES) {
    this.samples = samples;
    this.capacity = capacity;
    this.headerBytes = headerBytes;
    for (let k = 0; k < capacity; k++) this.free.push(this.view(new ArrayBuffer(this.bufferBytes)));
  }

  /** Bytes of one buffer: header + Int16 samples. */
  get bufferBytes(): number {
    return this.headerBytes + this.samples * 2;
  }

  /** Buffers ready for reuse. */
  get available(): number {
    return this.free.length;
  }

  /** The samples of a free (or new) buffer; `.buffer` is the whole message to transfer. */
  acquire(): Int16Array {
    return this.free.pop() ?? this.view(new ArrayBuffer(this.bufferBytes));
  }

  /** Takes back a buffer the receiver transferred back; ignores detached or foreign-sized ones. */
  release(buffer: ArrayBuffer): void {
    if (buffer.byteLength !== this.bufferBytes || this.free.length >= this.capacity) return;
    this.free.push(this.view(buffer));
  }

  private view(buffer: ArrayBuffer): Int16Array {
    return new Int16Array(buffer, this.headerBytes, this.samples);
  }
}
