import { FRAME_BYTES as CHUNK_BYTES } from '../../../../shared/audio-format';
import type { CapturedChunk } from '../recorder-types';

export const CHUNK_MS = 100;

/** A 100 ms chunk whose first four bytes carry its seq, so a fake stream can say which was sent. */
export function makeChunk(seq: number, speech: boolean, capturedAt = seq * CHUNK_MS): CapturedChunk {
  const pcm = new Uint8Array(CHUNK_BYTES);
  new DataView(pcm.buffer).setUint32(0, seq, true);
  return { seq, capturedAt, pcm, speech };
}

export function seqOf(pcm: Uint8Array): number {
  return new DataView(pcm.buffer, pcm.byteOffset, pcm.byteLength).getUint32(0, true);
}

/** One chunk per character: 'S' speech, '.' no speech. Spaces are ignored (for readability). */
export function chunksFromPattern(pattern: string, firstSeq = 0): CapturedChunk[] {
  const chars = [...pattern.replaceAll(' ', '')];
  return chars.map((char, index) => {
    if (char !== 'S' && char !== '.') throw new Error(`unknown chunk pattern character ${char}`);
    return makeChunk(firstSeq + index, char === 'S');
  });
}

/** The inclusive range [from, to] as an array, for expected seq lists. */
export function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, index) => from + index);
}
