import { describe, expect, it } from 'vitest';
import { Resampler } from './resampler';

function tone(rate: number, hz: number, seconds: number, amplitude = 0.5): Float32Array {
  const out = new Float32Array(Math.round(rate * seconds));
  for (let k = 0; k < out.length; k++) out[k] = amplitude * Math.sin((2 * Math.PI * hz * k) / rate);
  return out;
}

/** Runs a whole signal through a fresh resampler in blocks of the given sizes (cycled), then flushes. */
function resample(rate: number, signal: Float32Array, blockSizes: number[] = [128]): Float32Array {
  const resampler = new Resampler(rate);
  const largest = Math.max(...blockSizes);
  const block = new Float32Array(largest);
  const scratch = new Float32Array(Math.max(resampler.maxOutputLength(largest), resampler.maxFlushLength));
  const out: number[] = [];
  let read = 0;
  let b = 0;
  while (read < signal.length) {
    const size = Math.min(blockSizes[b++ % blockSizes.length]!, signal.length - read);
    block.set(signal.subarray(read, read + size));
    const n = resampler.process(block, scratch, size);
    expect(n).toBeLessThanOrEqual(resampler.maxOutputLength(size));
    for (let k = 0; k < n; k++) out.push(scratch[k]!);
    read += size;
  }
  const n = resampler.flush(scratch);
  for (let k = 0; k < n; k++) out.push(scratch[k]!);
  return Float32Array.from(out);
}

/** The middle of a signal, away from the silence the filter sees before and after it. */
function middle(signal: Float32Array, margin: number): Float32Array {
  return signal.subarray(margin, signal.length - margin);
}

function rms(signal: Float32Array): number {
  let sum = 0;
  for (const v of signal) sum += v * v;
  return Math.sqrt(sum / signal.length);
}

const db = (ratio: number): number => 20 * Math.log10(ratio);

describe('Resampler', () => {
  it.each([44_100, 48_000, 96_000, 22_050, 32_000, 44_056, 8_000])(
    'carries a 1 kHz tone at %i Hz to 16 kHz at the same frequency and level, with high SNR',
    (rate) => {
      const amplitude = 0.5;
      const out = resample(rate, tone(rate, 1_000, 1, amplitude), [128]);
      // Output sample k sits at time k / 16,000 s exactly: compare against the ideal tone itself.
      const ideal = tone(16_000, 1_000, out.length / 16_000, amplitude);
      const margin = 400; // 25 ms: past the filter's reach into the silence around the signal
      const got = middle(out, margin);
      const want = middle(ideal, margin);
      let noise = 0;
      for (let k = 0; k < got.length; k++) noise += (got[k]! - want[k]!) ** 2;
      const snr = 10 * Math.log10((rms(want) ** 2 * want.length) / noise);
      expect(Math.abs(db(rms(got) / rms(want)))).toBeLessThan(0.1);
      expect(snr).toBeGreaterThan(70);
    },
  );

  it.each([
    [48_000, 10_000],
    [48_000, 8_000],
    [48_000, 15_000],
    [48_000, 23_000],
    [44_100, 10_000],
    [44_100, 8_050],
    [96_000, 10_000],
    [96_000, 40_000],
  ])('rejects a tone at %i Hz input, %i Hz, at least 60 dB down', (rate, hz) => {
    const input = tone(rate, hz, 0.5);
    const out = resample(rate, input, [128]);
    expect(db(rms(middle(out, 400)) / rms(input))).toBeLessThan(-60);
  });

  it('puts out identical samples whatever the block sizes', () => {
    const rate = 44_100;
    const signal = new Float32Array(rate / 2);
    let seed = 1;
    for (let k = 0; k < signal.length; k++) {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      signal[k] = 0.3 * Math.sin(k / 7) + (seed / 2_147_483_648 - 0.5) * 0.4;
    }
    const reference = resample(rate, signal, [signal.length]);
    for (const sizes of [[1], [127], [128], [333], [4_096], [1, 127, 333, 4_096, 2]]) {
      expect(resample(rate, signal, sizes)).toEqual(reference);
    }
  });

  it.each([44_100, 48_000, 96_000, 22_050, 44_056, 16_000])(
    'puts out ceil(input × 16,000 / %i) samples after flush',
    (rate) => {
      const length = 12_345;
      const out = resample(rate, new Float32Array(length), [333]);
      expect(out.length).toBe(Math.ceil((length * 16_000) / rate));
    },
  );

  it('passes 16 kHz through untouched', () => {
    const input = tone(16_000, 440, 0.1);
    expect(resample(16_000, input, [127])).toEqual(input);
  });

  it('describes its filter and rejects impossible rates', () => {
    const r = new Resampler(48_000);
    expect(r.cutoffHz).toBeCloseTo(7_640, 0);
    expect(r.phases).toBe(1);
    expect(r.taps).toBeGreaterThan(100);
    expect(new Resampler(44_100).phases).toBe(160);
    expect(() => new Resampler(0)).toThrow(RangeError);
    expect(() => new Resampler(Number.NaN)).toThrow(RangeError);
  });
});
