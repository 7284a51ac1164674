import { CHUNK_HEADER_BYTES, CHUNK_MESSAGE_BYTES } from '../../../shared/contract/audio-chunk';
import { describe, expect, it } from 'vitest';
import { ChunkPool } from './chunk-pool';
import { FRAME_BYTES, FRAME_SAMPLES } from '../../../shared/audio-format';
import { toInt16LE } from './int16';

function convert(values: number[]): number[] {
  const target = new Int16Array(values.length);
  toInt16LE(Float32Array.from(values), target);
  return Array.from(target);
}

describe('toInt16LE', () => {
  it('clips full scale and beyond instead of wrapping around', () => {
    expect(convert([1, -1, 1.0001, -1.0001, 2, -2, 1e9, -1e9, Infinity, -Infinity])).toEqual([
      32_767, -32_768, 32_767, -32_768, 32_767, -32_768, 32_767, -32_768, 32_767, -32_768,
    ]);
  });

  it('scales by 32,768 and rounds to the nearest step', () => {
    expect(convert([0, 0.5, -0.5, 0.25, 32_766 / 32_768, -32_767 / 32_768])).toEqual([
      0, 16_384, -16_384, 8_192, 32_766, -32_767,
    ]);
    const step = 1 / 32_768;
    expect(convert([step * 0.49, step * 0.51, -step * 0.49, -step * 0.51, step * 1.5, step * 2.4])).toEqual([
      0, 1, 0, -1, 2, 2,
    ]);
    expect(convert([Number.NaN])).toEqual([0]);
  });

  it('writes little-endian bytes', () => {
    const target = new Int16Array(2);
    toInt16LE(Float32Array.of(0x0102 / 32_768, -1), target);
    expect(Array.from(new Uint8Array(target.buffer))).toEqual([0x02, 0x01, 0x00, 0x80]);
  });

  it('converts only the given length and refuses a target that is too small', () => {
    const target = new Int16Array(3).fill(7);
    toInt16LE(Float32Array.of(0.5, 0.5, 0.5), target, 2);
    expect(Array.from(target)).toEqual([16_384, 16_384, 7]);
    expect(() => toInt16LE(new Float32Array(4), new Int16Array(3))).toThrow(RangeError);
  });
});

describe('ChunkPool', () => {
  it('hands out 3,200-byte chunks inside whole chunk messages, reuses returned ones and allocates when empty', () => {
    const pool = new ChunkPool(FRAME_SAMPLES, 2);
    const a = pool.acquire();
    const b = pool.acquire();
    expect(a.byteLength).toBe(FRAME_BYTES);
    expect(a.byteOffset).toBe(CHUNK_HEADER_BYTES);
    expect(a.buffer.byteLength).toBe(CHUNK_MESSAGE_BYTES);
    expect(pool.available).toBe(0);
    const c = pool.acquire(); // empty pool: a fresh buffer
    expect(c.buffer).not.toBe(a.buffer);
    pool.release(a.buffer as ArrayBuffer);
    expect(pool.acquire().buffer).toBe(a.buffer);
    pool.release(new ArrayBuffer(0)); // a detached buffer reads as 0 bytes: ignored
    pool.release(b.buffer as ArrayBuffer);
    pool.release(c.buffer as ArrayBuffer);
    pool.release(new ArrayBuffer(CHUNK_MESSAGE_BYTES)); // over capacity: ignored
    expect(pool.available).toBe(2);
  });
});
