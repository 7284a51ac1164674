import { describe, expect, it } from 'vitest';
import { CHUNK_HEADER_BYTES, CHUNK_MESSAGE_BYTES } from '../../../shared/contract/audio-chunk';
import { CaptureChunker, MIN_FINAL_SAMPLES } from './capture-chunker';

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

  describe('flush at End: the audio since the last full chunk goes out as a final, shorter chunk', () => {
    /** Everything the chunker emits for `input` pushed in 128-sample blocks, then flushed. */
    function flushed(rate: number, input: Float32Array, excessInputFrames = 0, block = 128) {
      const chunks: {
        index: number;
        samples: Int16Array;
        audioSamples: number;
        inputFrames: number;
        final: boolean;
      }[] = [];
      const chunker = new CaptureChunker(rate, (message, index, inputFrames, audioSamples, final) => {
        chunks.push({
          index,
          inputFrames,
          audioSamples,
          final,
          samples: new Int16Array(message.slice(CHUNK_HEADER_BYTES)),
        });
        chunker.release(message);
      });
      for (let at = 0; at < input.length; at += block)
        chunker.push(input.subarray(at, Math.min(input.length, at + block)));
      const tail = chunker.flush(excessInputFrames);
      return { chunks, tail };
    }

    it('at 16 kHz every captured sample reaches a chunk: 3 full chunks and a 70 ms final one', () => {
      const input = signal(16_000, 0.37);
      const { chunks, tail } = flushed(16_000, input);
      expect(chunks.map((c) => c.samples.length)).toEqual([1_600, 1_600, 1_600, 1_120]);
      expect(chunks.map((c) => c.index)).toEqual([0, 1, 2, 3]);
      expect(chunks.map((c) => c.final)).toEqual([false, false, false, true]);
      expect(tail).toBe(1_120);
      expect(chunks.at(-1)!.audioSamples).toBe(1_120);
      expect(chunks.at(-1)!.inputFrames).toBe(input.length);
      const all = Int16Array.from(chunks.flatMap((c) => [...c.samples]));
      expect(all.length).toBe(input.length);
      for (const k of [0, 4_800, 5_000, input.length - 1])
        expect(all[k]).toBe(Math.max(-32_768, Math.min(32_767, Math.round(input[k]! * 32_768))) + 0);
    });

    it('a remainder under 20 ms is zero-padded to 20 ms (the service refuses shorter), never dropped', () => {
      const input = signal(16_000, 0.205); // 80 samples (5 ms) past the second full chunk
      const { chunks, tail } = flushed(16_000, input);
      expect(tail).toBe(80);
      const last = chunks.at(-1)!;
      expect(last.samples.length).toBe(MIN_FINAL_SAMPLES);
      expect(MIN_FINAL_SAMPLES).toBe(320);
      expect(last.audioSamples).toBe(80);
      expect(Array.from(last.samples.subarray(0, 80))).toEqual(
        Array.from(
          input.subarray(3_200),
          (v) => Math.max(-32_768, Math.min(32_767, Math.round(v * 32_768))) + 0,
        ),
      );
      expect(last.samples.subarray(80).every((v) => v === 0)).toBe(true);
    });

    it('exactly on a chunk boundary there is nothing left and no final chunk', () => {
      const { chunks, tail } = flushed(16_000, signal(16_000, 0.2));
      expect(tail).toBe(0);
      expect(chunks.map((c) => c.samples.length)).toEqual([1_600, 1_600]);
    });

    it('input past the end of the capture is cut from the final chunk (a quantum rendered before End was handled)', () => {
      // Whole-chunk quanta: 1,600 samples a block; End fell 600 samples into the third block.
      const input = signal(16_000, 0.3);
      const { chunks, tail } = flushed(16_000, input.subarray(0, 4_000), 400, 1_600);
      expect(chunks.map((c) => c.samples.length)).toEqual([1_600, 1_600, 400]);
      expect(tail).toBe(400);
      expect(chunks.at(-1)!.final).toBe(true);
      // Past a chunk already sent, what was sent stays: the final chunk is simply not there.
      const over = flushed(16_000, input.subarray(0, 3_300), 500, 1_600);
      expect(over.tail).toBe(0);
      expect(over.chunks.map((c) => c.samples.length)).toEqual([1_600, 1_600]);
    });

    it('at 48 kHz the resampler gives up what it held back: the chunks cover all the input', () => {
      const input = signal(48_000, 0.37);
      const { chunks } = flushed(48_000, input);
      const total = chunks.reduce((sum, c) => sum + c.audioSamples, 0);
      // 0.37 s at 16 kHz, rounded up (the filter's last output samples are computed against silence).
      expect(total).toBe(Math.ceil((input.length * 16_000) / 48_000));
      expect(chunks.slice(0, -1).every((c) => c.samples.length === 1_600)).toBe(true);
      // The same audio as without the flush, where the two overlap.
      const plain = run(48_000, input, [128]);
      plain.forEach((c, k) => expect(chunks[k]!.samples).toEqual(c.samples));
    });
  });
});
