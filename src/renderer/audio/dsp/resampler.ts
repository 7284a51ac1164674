import { SERVICE_SAMPLE_RATE } from '../../../shared/audio-format';
import { besselI0, kaiserBeta, kaiserHalfWidth, windowedSinc } from './kaiser';

export interface ResamplerOptions {
  /** Output rate in Hz (default 16,000). */
  outputRate?: number;
  /** Pass-band edge as a fraction of the lower Nyquist frequency (default 0.91: flat to 7.28 kHz, −6 dB at 7.64 kHz; chosen as the closest match to sox `rate -v` on speech, see docs/benchmarks.md). */
  bandwidth?: number;
  /** Stop-band attenuation the Kaiser design aims for, in dB (default 100). */
  attenuationDb?: number;
}

/** Rational ratios with more phases than this use a 512-phase table, linearly interpolated. */
const MAX_EXACT_PHASES = 1_024;
const INTERPOLATED_PHASES = 512;

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

/**
 * Streaming sample-rate converter to 16 kHz (or `outputRate`): a Kaiser-windowed sinc low-pass
 * evaluated as a polyphase filter bank. Output sample k sits exactly at input time k · in/out
 * (the filter is centred there, so there is no group delay to compensate); it is emitted once the
 * filter's right half has arrived, `latencyInputSamples` later. State carries across blocks, so the
 * output is identical whatever the block sizes.
 *
 * All buffers are allocated in the constructor; `process()` and `flush()` allocate nothing.
 */
export class Resampler {
  readonly inputRate: number;
  readonly outputRate: number;
  /** Taps per output sample (0 for passthrough). */
  readonly taps: number;
  /** Polyphase rows in the coefficient table. */
  readonly phases: number;
  /** −6 dB point of the low-pass, in Hz. */
  readonly cutoffHz: number;
  /** Input samples that must arrive after an output sample's instant before it is emitted. */
  readonly latencyInputSamples: number;

  private readonly passthrough: boolean;
  private readonly up: number; // L: output steps per `down` input samples
  private readonly down: number; // M
  private readonly stepWhole: number; // floor(M / L)
  private readonly stepFrac: number; // M mod L
  private readonly interpolate: boolean;
  private readonly table: Float32Array; // rows × taps
  private readonly ring: Float32Array; // 2 × ringSize, every sample written twice
  private readonly ringSize: number;
  private readonly ringMask: number;
  private readonly half: number; // J: taps either side

  private writePos = 0;
  private startPos = 0; // ring index of the first tap of the next output
  private need = 0; // input samples still missing before the next output can be computed
  private frac = 0; // phase of the next output, in [0, up)
  private received = 0;
  private emitted = 0;

  constructor(inputRate: number, options: ResamplerOptions = {}) {
    const outputRate = Math.round(options.outputRate ?? SERVICE_SAMPLE_RATE);
    const rate = Math.round(inputRate);
    if (!Number.isFinite(rate) || rate <= 0 || !Number.isFinite(outputRate) || outputRate <= 0) {
      throw new RangeError(
        `Unsupported sample rates: ${inputRate} → ${options.outputRate ?? SERVICE_SAMPLE_RATE}`,
      );
    }
    this.inputRate = rate;
    this.outputRate = outputRate;
    const g = gcd(rate, outputRate);
    this.up = outputRate / g;
    this.down = rate / g;
    this.stepWhole = Math.floor(this.down / this.up);
    this.stepFrac = this.down % this.up;
    this.passthrough = rate === outputRate;

    const bandwidth = options.bandwidth ?? 0.91;
    const attenuationDb = options.attenuationDb ?? 100;
    const nyquist = Math.min(rate, outputRate) / 2;
    const transitionHz = (1 - bandwidth) * nyquist;
    this.cutoffHz = nyquist - transitionHz / 2;
    const halfWidth = kaiserHalfWidth(attenuationDb, transitionHz, rate);
    const half = this.passthrough ? 0 : Math.ceil(halfWidth);
    this.half = half;
    this.taps = 2 * half;
    this.latencyInputSamples = half;

    this.interpolate = this.up > MAX_EXACT_PHASES;
    this.phases = this.passthrough ? 0 : this.interpolate ? INTERPOLATED_PHASES : this.up;
    const rows = this.interpolate ? this.phases + 1 : this.phases;
    this.table = new Float32Array(rows * this.taps);
    const beta = kaiserBeta(attenuationDb);
    const i0Beta = besselI0(beta);
    const cutoff = this.cutoffHz / rate;
    for (let p = 0; p < rows; p++) {
      const phase = p / this.phases;
      let sum = 0;
      for (let m = 0; m < this.taps; m++)
        sum += windowedSinc(phase - (m - half + 1), cutoff, halfWidth, beta, i0Beta);
      // Each row sums to exactly 1, so DC passes at unity whatever the phase.
      for (let m = 0; m < this.taps; m++) {
        this.table[p * this.taps + m] =
          windowedSinc(phase - (m - half + 1), cutoff, halfWidth, beta, i0Beta) / sum;
      }
    }

    let size = 1;
    while (size < this.taps) size *= 2;
    this.ringSize = size;
    this.ringMask = size - 1;
    this.ring = new Float32Array(2 * size);
    this.reset();
  }

  /** Forgets all input: the next sample is time zero again. */
  reset(): void {
    this.ring.fill(0);
    this.writePos = 0;
    // Samples before time zero are silence: the first output's window starts J − 1 samples early.
    this.startPos = (this.ringSize - this.half + 1) & this.ringMask;
    this.need = this.half + 1;
    this.frac = 0;
    this.received = 0;
    this.emitted = 0;
  }

  /** The most output samples `process()` can write for `inputLength` input samples. */
  maxOutputLength(inputLength: number): number {
    return Math.floor((inputLength * this.up) / this.down) + 2;
  }

  /** The most output samples `flush()` can write. */
  get maxFlushLength(): number {
    return Math.ceil(((this.half + 1) * this.up) / this.down) + 2;
  }

  /**
   * Feeds `input[0 … inputLength)` and writes every output sample that is now complete to
   * `output` from index 0 (size it with `maxOutputLength`). Returns how many were written.
   */
  process(input: Float32Array, output: Float32Array, inputLength: number = input.length): number {
    if (this.passthrough) {
      for (let s = 0; s < inputLength; s++) output[s] = input[s]!;
      this.received += inputLength;
      this.emitted += inputLength;
      return inputLength;
    }
    let written = 0;
    for (let s = 0; s < inputLength; s++) {
      written = this.push(input[s]!, output, written, Number.POSITIVE_INFINITY);
    }
    this.received += inputLength;
    return written;
  }

  /**
   * Ends the stream: pads with silence until every output sample whose instant lies within the
   * input has been written (ceil(input × out / in) in all). Call `reset()` before reusing.
   */
  flush(output: Float32Array): number {
    if (this.passthrough) return 0;
    const total = Math.ceil((this.received * this.up) / this.down);
    let written = 0;
    while (this.emitted < total) written = this.push(0, output, written, total);
    return written;
  }

  private push(value: number, output: Float32Array, written: number, limit: number): number {
    const ring = this.ring;
    ring[this.writePos] = value;
    ring[this.writePos + this.ringSize] = value;
    this.writePos = (this.writePos + 1) & this.ringMask;
    this.need--;
    while (this.need <= 0 && this.emitted < limit) {
      output[written++] = this.interpolate ? this.dotInterpolated() : this.dot();
      this.emitted++;
      let step = this.stepWhole;
      this.frac += this.stepFrac;
      if (this.frac >= this.up) {
        this.frac -= this.up;
        step++;
      }
      this.startPos = (this.startPos + step) & this.ringMask;
      this.need += step;
    }
    return written;
  }

  private dot(): number {
    const ring = this.ring;
    const table = this.table;
    const taps = this.taps;
    const row = this.frac * taps;
    const start = this.startPos;
    let a = 0;
    let b = 0;
    let m = 0;
    for (; m + 1 < taps; m += 2) {
      a += ring[start + m]! * table[row + m]!;
      b += ring[start + m + 1]! * table[row + m + 1]!;
    }
    if (m < taps) a += ring[start + m]! * table[row + m]!;
    return a + b;
  }

  private dotInterpolated(): number {
    const ring = this.ring;
    const table = this.table;
    const taps = this.taps;
    const position = (this.frac * this.phases) / this.up;
    const p = Math.floor(position);
    const w = position - p;
    const row0 = p * taps;
    const row1 = row0 + taps;
    const start = this.startPos;
    let a = 0;
    let b = 0;
    for (let m = 0; m < taps; m++) {
      const x = ring[start + m]!;
      a += x * table[row0 + m]!;
      b += x * table[row1 + m]!;
    }
    return a + w * (b - a);
  }
}
