import { describe, expect, it } from 'vitest';
import { CHUNK_HEADER_BYTES, CHUNK_MESSAGE_BYTES } from '../../../shared/contract/audio-chunk';
import { CaptureChunker } from './capture-chunker';

/** A 440 Hz tone at 1.5 × full scale (so it must clip), `seconds` long at `rate`. */
function signal(rate: number, seconds: number): Float32Array {
  return Float32Array.from(
    { length: Math.round(rate * seconds) },
    (_, k) => 1.5 * Math.sin((2 * Math.PI * 440 * k) / rate),
  );
}

function run(rate: number, input: Float32Array, blockSizes: number[], recycle = true) {
  const chunks: { index: number; samples: Int16Array; inputFrames: number; buffer: ArrayBuffer }[] = [];
  const chunker = new CaptureChunker(rate, (message, index, inputFrames) => {
    chunks.push({
      index,
      inputFrames,
      buffer: message,
      samples: new Int16Array(message.slice(CHUNK_HEADER_BYTES)),
    });
    if (recycle) chunker.release(message); // as the renderer does once it has sent the chunk
  });
  let at = 0;
  for (let b = 0; at < input.length; b++) {
    const size = Math.min(blockSizes[b % blockSizes.length]!, input.length - at);
    chunker.push(input.subarray(at, at + size));
    at += size;
  }
  return chunks;
}

describe('CaptureChunker (what the worklet runs)', () => {
  it('turns 44.1 kHz blocks into 100 ms chunks of 16 kHz Int16 inside whole chunk messages', () => {
    const chunks = run(44_100, signal(44_100, 2), [128]);
    // 2 s at 16 kHz = 32,000 samples = 20 chunks, less the filter's latency at the end.
    expect(chunks.length).toBe(19);
    expect(chunks.map((c) => c.index)).toEqual([...Array(19).keys()]);
    for (const chunk of chunks) {
      expect(chunk.buffer.byteLength).toBe(CHUNK_MESSAGE_BYTES);
      expect(chunk.samples.length).toBe(1_600);
    }
    // The over-loud tone clips at the rails instead of wrapping around.
    const all = chunks.flatMap((c) => [...c.samples]);
    expect(Math.max(...all)).toBe(32_767);
    expect(Math.min(...all)).toBe(-32_768);
    expect(all.filter((v) => v === 32_767).length).toBeGreaterThan(1_000);
    // Each chunk completes once its last output sample's input has arrived: ≈ (k + 1) × 4,410 frames.
    for (const chunk of chunks) {
      expect(chunk.inputFrames).toBeGreaterThanOrEqual((chunk.index + 1) * 4_410);
      expect(chunk.inputFrames).toBeLessThan((chunk.index + 1) * 4_410 + chunks[0]!.inputFrames);
    }
  });

  it('gives the same chunks whatever the input block sizes', () => {
    const input = signal(48_000, 1.5);
    const reference = run(48_000, input, [128]);
    for (const sizes of [[1], [127, 129, 3], [4_096], [1_000, 7]]) {
      const chunks = run(48_000, input, sizes);
      expect(chunks.length).toBe(reference.length);
      chunks.forEach((c, k) => expect(c.samples).toEqual(reference[k]!.samples));
    }
  });

  it('reuses returned buffers, and still delivers when the receiver is slow to return them', () => {
    const recycled = run(16_000, signal(16_000, 3), [128]);
    expect(new Set(recycled.map((c) => c.buffer)).size).toBe(1);
    const held = run(16_000, signal(16_000, 3), [128], false);
    expect(held.length).toBe(30);
    expect(new Set(held.map((c) => c.buffer)).size).toBe(30);
  });

  it('at 16 kHz passes samples through exactly (Int16 rounding only)', () => {
    const input = signal(16_000, 0.2);
    const [first] = run(16_000, input, [128]);
    for (const k of [0, 1, 17]) expect(first!.samples[k]).toBe(Math.round(input[k]! * 32_768));
    expect(first!.samples[9]).toBe(32_767); // 1.5 × sin at sample 9 is over full scale
  });
});
