import { describe, expect, it } from 'vitest';
import { FRAME_SAMPLES } from '../../../shared/audio-format';
import { Framer } from './framer';

/** A ramp whose value is its own index, so any lost, doubled or reordered sample shows. */
function ramp(length: number): Float32Array {
  const out = new Float32Array(length);
  for (let k = 0; k < length; k++) out[k] = k;
  return out;
}

function frameAll(signal: Float32Array, blockSizes: number[]): { frames: Float32Array[]; indices: number[] } {
  const frames: Float32Array[] = [];
  const indices: number[] = [];
  const framer = new Framer((frame, index) => {
    frames.push(frame.slice());
    indices.push(index);
  });
  let read = 0;
  let b = 0;
  while (read < signal.length) {
    const size = Math.min(blockSizes[b++ % blockSizes.length]!, signal.length - read);
    framer.push(signal.subarray(read, read + size));
    read += size;
  }
  return { frames, indices };
}

describe('Framer', () => {
  const total = FRAME_SAMPLES * 7 + 123;
  const signal = ramp(total);

  it.each([
    [[1]],
    [[127]],
    [[128]],
    [[333]],
    [[4096]],
    [[1600]],
    [[1599]],
    [[1601]],
    [[1, 127, 333, 4096, 2]],
  ])('cuts exact 1,600-sample frames, in order, from blocks of %j', (sizes) => {
    const { frames, indices } = frameAll(signal, sizes);
    expect(frames).toHaveLength(7);
    expect(indices).toEqual([0, 1, 2, 3, 4, 5, 6]);
    frames.forEach((frame, f) => {
      expect(frame).toHaveLength(FRAME_SAMPLES);
      expect(frame[0]).toBe(f * FRAME_SAMPLES);
      expect(frame[FRAME_SAMPLES - 1]).toBe((f + 1) * FRAME_SAMPLES - 1);
      for (let k = 0; k < FRAME_SAMPLES; k++)
        if (frame[k] !== f * FRAME_SAMPLES + k) throw new Error(`sample ${k}`);
    });
  });

  it('emits a frame exactly when its last sample arrives and keeps the remainder pending', () => {
    let emitted = 0;
    const framer = new Framer(() => emitted++);
    framer.push(new Float32Array(FRAME_SAMPLES - 1));
    expect(emitted).toBe(0);
    expect(framer.pending).toBe(FRAME_SAMPLES - 1);
    framer.push(new Float32Array(1));
    expect(emitted).toBe(1);
    expect(framer.pending).toBe(0);
    framer.push(new Float32Array(FRAME_SAMPLES * 2 + 5));
    expect(emitted).toBe(3);
    expect(framer.pending).toBe(5);
    expect(framer.frames).toBe(3);
  });

  it('reads only the given length of a reused block buffer', () => {
    const frames: Float32Array[] = [];
    const framer = new Framer((frame) => frames.push(frame.slice()), 4);
    const block = Float32Array.of(1, 2, 3, 99);
    framer.push(block, 3);
    framer.push(Float32Array.of(4, 5, 6, 7, 8), 5);
    expect(frames.map((f) => Array.from(f))).toEqual([
      [1, 2, 3, 4],
      [5, 6, 7, 8],
    ]);
  });

  it('drops a partial frame on clear() without resetting the frame index', () => {
    const indices: number[] = [];
    const firsts: number[] = [];
    const framer = new Framer((frame, index) => {
      indices.push(index);
      firsts.push(frame[0]!);
    }, 3);
    framer.push(Float32Array.of(1, 2, 3, 4));
    framer.clear();
    framer.push(Float32Array.of(7, 8, 9));
    expect(indices).toEqual([0, 1]);
    expect(firsts).toEqual([1, 7]);
  });

  it('hands over the partial frame once, in order, without counting it as a frame', () => {
    const framer = new Framer(() => undefined);
    framer.push(ramp(FRAME_SAMPLES + 300));
    const partial = framer.takePartial();
    expect(Array.from(partial)).toEqual(Array.from(ramp(FRAME_SAMPLES + 300).subarray(FRAME_SAMPLES)));
    expect(framer.frames).toBe(1);
    expect(framer.pending).toBe(0);
    expect(framer.takePartial().length).toBe(0);
  });
});
