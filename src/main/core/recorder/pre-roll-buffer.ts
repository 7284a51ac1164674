import { pcmDurationMs } from './audio-duration';
import type { CapturedChunk } from './recorder-types';

/**
 * The audio just before a speech onset, kept while auto-paused so the first word is not clipped.
 * Holds the shortest run of the newest chunks that covers `keepMs` (never less than `keepMs`
 * unless fewer chunks arrived), oldest first. A handful of chunks, so a plain array is enough.
 * Chunks come back as they were pushed, with whatever the recorder noted on them (their visit time).
 */
export class PreRollBuffer<Chunk extends CapturedChunk = CapturedChunk> {
  private chunks: Chunk[] = [];
  private heldMs = 0;

  constructor(private readonly keepMs: number) {}

  push(chunk: Chunk): void {
    this.chunks.push(chunk);
    this.heldMs += pcmDurationMs(chunk.pcm);
    // Drop the oldest chunk only while the rest still covers keepMs: at least keepMs of lead-in.
    for (let oldest = this.chunks[0]; oldest; oldest = this.chunks[0]) {
      const withoutOldest = this.heldMs - pcmDurationMs(oldest.pcm);
      if (withoutOldest < this.keepMs) break;
      this.chunks.shift();
      this.heldMs = withoutOldest;
    }
  }

  /** Hands over the held chunks, oldest first, and empties the buffer (each chunk goes out once). */
  drain(): Chunk[] {
    const out = this.chunks;
    this.clear();
    return out;
  }

  clear(): void {
    this.chunks = [];
    this.heldMs = 0;
  }

  get durationMs(): number {
    return this.heldMs;
  }

  get seqs(): number[] {
    return this.chunks.map((chunk) => chunk.seq);
  }
}
