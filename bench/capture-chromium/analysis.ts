/**
 * How close a capture is to sox's rendering of the same file: alignment (the capture opens a
 * moment after the fake device starts the file, and each resampler has its own delay), SNR, and
 * for the tone file, what comes out where the 10 kHz tone aliases.
 */
import { binFrequency, fft, integerLag, nextPow2, spectrum } from './fft';
import { cleanStretch, type Dropout, type Slip } from './losses';
import { OUTPUT_RATE, TONE_LAYOUT } from './signals';

/** Left out at each end of the overlap: start-up of the capture, the file's end. */
const EDGE = OUTPUT_RATE / 10;
/** The band the "≤ 7 kHz" SNR keeps: below both resamplers' transition bands. */
const BAND_HZ = 7_000;
/** Where the response relative to sox is reported. */
export const RESPONSE_HZ = [1_000, 3_000, 5_000, 6_000, 7_000];

export interface SpeechQuality {
  /**
   * capture[n + lag] ≈ reference[n] over the stretch compared; negative = the capture missed the
   * file's first −lag samples.
   */
  lag: number;
  /** Timing slips; the figures below cover the longest stretch without a slip or a dropout. */
  slips: Slip[];
  /** Audio lost in place (zeros where the file has sound). */
  dropouts: Dropout[];
  /** At the integer lag, as captured (gain 1). */
  snrInteger: number;
  /** At the integer lag, capture scaled by the least-squares gain. */
  snrIntegerGain: number;
  /** The fractional part of the best lag, in 16 kHz samples. */
  fraction: number;
  /** The least-squares gain at the best lag, in dB. */
  gainDb: number;
  /** At the best (fractional) lag and gain: the resampler's error, not its delay. */
  snrBest: number;
  /** The same, both signals limited to ≤ 7 kHz (leaves out where the two filters' edges differ). */
  snrBestBand: number;
  /** The worst 1-second stretch at the best lag and gain (a dropout or glitch shows here). */
  snrWorstSecond: number;
  /**
   * ≤ 7 kHz, once the best linear filter from the reference has been allowed (coherence): what is
   * left is aliasing, noise and glitches, not a different frequency response.
   */
  snrEqualizedBand: number;
  /** The capture's response relative to sox's at RESPONSE_HZ (dB; negative = quieter). */
  responseDb: number[];
  /** Seconds compared. */
  seconds: number;
}

export function speechQuality(reference: Float32Array, capture: Float32Array): SpeechQuality {
  const { from, to, lag, slips, dropouts } = cleanStretch(reference, capture);
  // From here on, the stretch that kept one lag, sliced so that the two line up at lag 0.
  const ref = reference.subarray(from, to);
  const cap = capture.subarray(from + lag, to + lag);
  const [r, t] = overlap(ref, cap, 0);
  if (r.length < OUTPUT_RATE)
    throw new Error(`only ${r.length} samples of the capture line up with the file`);
  const fraction = bestFraction(ref, cap);
  const shifted = advance(cap, fraction);
  const [rb, tb] = overlap(ref, shifted, 0);
  const gain = leastSquaresGain(rb, tb);
  const [rl, tl] = overlap(lowpass(ref, BAND_HZ), lowpass(shifted, BAND_HZ), 0);
  let worst = Number.POSITIVE_INFINITY;
  for (let start = 0; start + OUTPUT_RATE <= rb.length; start += OUTPUT_RATE) {
    const end = start + OUTPUT_RATE;
    worst = Math.min(worst, snrDb(rb.subarray(start, end), tb.subarray(start, end), gain));
  }
  return {
    lag,
    slips,
    dropouts,
    snrInteger: snrDb(r, t, 1),
    snrIntegerGain: snrDb(r, t, leastSquaresGain(r, t)),
    fraction,
    gainDb: 20 * Math.log10(gain),
    snrBest: snrDb(rb, tb, gain),
    snrBestBand: snrDb(rl, tl, leastSquaresGain(rl, tl)),
    snrWorstSecond: worst,
    ...compareSpectra(rb, tb),
    seconds: rb.length / OUTPUT_RATE,
  };
}

export interface ToneQuality {
  lag: number;
  /** Amplitude at the alias frequency (6 kHz) while the tone plays, dB re full scale. */
  aliasDbfs: number;
  /** The same, dB re the input tone (−6 dBFS). */
  aliasDbTone: number;
  /** Everything that comes out while the tone plays (RMS), dB re the input tone's RMS. */
  totalDbTone: number;
  /** The 1 kHz marker's amplitude, dB re its input (the pass band's gain). */
  markerGainDb: number;
}

/** `capture` of the tone file (TONE_LAYOUT), aligned on the 1 kHz marker of sox's `reference`. */
export function toneQuality(reference: Float32Array, capture: Float32Array): ToneQuality {
  const { marker, tone, markerHz, aliasHz, amplitude } = TONE_LAYOUT;
  const lag = integerLag(reference, capture);
  // The parts of the capture that line up with each part of the file, 0.1 s in from its edges.
  const window = ([from, to]: readonly [number, number]): Float32Array => {
    const start = Math.round((from + 0.1) * OUTPUT_RATE) + lag;
    const end = Math.round((to - 0.1) * OUTPUT_RATE) + lag;
    if (start < 0 || end > capture.length) throw new Error('the capture misses part of the tone file');
    return capture.subarray(start, end);
  };
  const alias = peakAmplitude(window(tone), aliasHz, 25);
  const toneRms = amplitude / Math.SQRT2;
  return {
    lag,
    aliasDbfs: 20 * Math.log10(alias),
    aliasDbTone: 20 * Math.log10(alias / amplitude),
    totalDbTone: 20 * Math.log10(rms(window(tone)) / toneRms),
    markerGainDb: 20 * Math.log10(peakAmplitude(window(marker), markerHz, 5) / amplitude),
  };
}

/**
 * Welch estimates (1,024-point Hann segments, half overlapping) of how `test` relates to
 * `reference`: its response H(f) = S_rt / S_rr around RESPONSE_HZ (±250 Hz), and the SNR ≤ 7 kHz
 * after the best linear filter, Σ S_tt / Σ S_tt·(1 − γ²), where γ² is the coherence.
 */
function compareSpectra(
  reference: Float32Array,
  test: Float32Array,
): { snrEqualizedBand: number; responseDb: number[] } {
  const size = 1_024;
  const bins = size / 2 + 1;
  const srr = new Float64Array(bins);
  const stt = new Float64Array(bins);
  const srtRe = new Float64Array(bins);
  const srtIm = new Float64Array(bins);
  const hann = Float64Array.from({ length: size }, (_, k) => 0.5 - 0.5 * Math.cos((2 * Math.PI * k) / size));
  const r = { re: new Float64Array(size), im: new Float64Array(size) };
  const t = { re: new Float64Array(size), im: new Float64Array(size) };
  for (let start = 0; start + size <= reference.length; start += size / 2) {
    for (let k = 0; k < size; k++) {
      r.re[k] = reference[start + k]! * hann[k]!;
      t.re[k] = test[start + k]! * hann[k]!;
    }
    r.im.fill(0);
    t.im.fill(0);
    fft(r.re, r.im);
    fft(t.re, t.im);
    for (let k = 0; k < bins; k++) {
      const [rRe, rIm, tRe, tIm] = [r.re[k]!, r.im[k]!, t.re[k]!, t.im[k]!];
      srr[k] = srr[k]! + rRe * rRe + rIm * rIm;
      stt[k] = stt[k]! + tRe * tRe + tIm * tIm;
      // conj(R) · T
      srtRe[k] = srtRe[k]! + rRe * tRe + rIm * tIm;
      srtIm[k] = srtIm[k]! + rRe * tIm - rIm * tRe;
    }
  }
  const binOf = (hz: number) => Math.round((hz / OUTPUT_RATE) * size);
  let signal = 0;
  let residual = 0;
  for (let k = 1; k <= binOf(BAND_HZ); k++) {
    signal += stt[k]!;
    residual += stt[k]! - (srtRe[k]! ** 2 + srtIm[k]! ** 2) / srr[k]!;
  }
  const responseDb = RESPONSE_HZ.map((hz) => {
    let re = 0;
    let im = 0;
    let power = 0;
    for (let k = binOf(hz - 250); k <= binOf(hz + 250); k++) {
      re += srtRe[k]!;
      im += srtIm[k]!;
      power += srr[k]!;
    }
    return 20 * Math.log10(Math.hypot(re, im) / power);
  });
  return { snrEqualizedBand: 10 * Math.log10(signal / residual), responseDb };
}

/** The reference and capture stretches that line up at `lag`, less EDGE at each end. */
function overlap(reference: Float32Array, capture: Float32Array, lag: number): [Float32Array, Float32Array] {
  const from = Math.max(0, -lag) + EDGE;
  const to = Math.min(reference.length, capture.length - lag) - EDGE;
  return [reference.subarray(from, to), capture.subarray(from + lag, to + lag)];
}

/**
 * The fractional lag in (−1, 1) that, added to the integer one, gives the best gain-matched SNR:
 * golden-section search on 4 s from the middle of the overlap (the optimum is unimodal there).
 */
function bestFraction(reference: Float32Array, capture: Float32Array): number {
  const [r, t] = overlap(reference, capture, 0);
  const size = 65_536;
  const margin = 2_048;
  const mid = Math.max(0, Math.floor((r.length - size) / 2));
  const rWin = r.subarray(mid + margin, Math.min(r.length, mid + size) - margin);
  // The capture's stretch with margins either side, so the shift's edge ringing stays outside.
  const tPart = t.subarray(mid, Math.min(t.length, mid + size));
  const shifter = fractionalShifter(tPart);
  const score = (d: number): number => {
    const tWin = shifter(d).subarray(margin, margin + rWin.length);
    return snrDb(rWin, tWin, leastSquaresGain(rWin, tWin));
  };
  let [lo, hi] = [-1, 1];
  const phi = (Math.sqrt(5) - 1) / 2;
  let a = hi - phi * (hi - lo);
  let b = lo + phi * (hi - lo);
  let fa = score(a);
  let fb = score(b);
  while (hi - lo > 1e-3) {
    if (fa > fb) {
      [hi, b, fb] = [b, a, fa];
      a = hi - phi * (hi - lo);
      fa = score(a);
    } else {
      [lo, a, fa] = [a, b, fb];
      b = lo + phi * (hi - lo);
      fb = score(b);
    }
  }
  return (lo + hi) / 2;
}

/** `signal` moved earlier by `d` samples (x[n + d]), band-limited interpolation by FFT. */
function advance(signal: Float32Array, d: number): Float32Array {
  return fractionalShifter(signal)(d);
}

function fractionalShifter(signal: Float32Array): (d: number) => Float32Array {
  const size = nextPow2(signal.length + 1_024);
  const { re, im } = spectrum(signal, size);
  return (d) => {
    const outRe = new Float64Array(size);
    const outIm = new Float64Array(size);
    for (let k = 0; k < size; k++) {
      const phase = 2 * Math.PI * binFrequency(k, size) * d;
      const c = Math.cos(phase);
      const s = Math.sin(phase);
      outRe[k] = re[k]! * c - im[k]! * s;
      outIm[k] = re[k]! * s + im[k]! * c;
    }
    fft(outRe, outIm, true);
    return Float32Array.from(outRe.subarray(0, signal.length));
  };
}

/** Zero-phase brick-wall low-pass at `hz` (used only to compare two signals within one band). */
function lowpass(signal: Float32Array, hz: number): Float32Array {
  const size = nextPow2(signal.length + 1_024);
  const { re, im } = spectrum(signal, size);
  const cutoff = hz / OUTPUT_RATE;
  for (let k = 0; k < size; k++) {
    if (Math.abs(binFrequency(k, size)) > cutoff) re[k] = im[k] = 0;
  }
  fft(re, im, true);
  return Float32Array.from(re.subarray(0, signal.length));
}

function leastSquaresGain(reference: Float32Array, test: Float32Array): number {
  let rt = 0;
  let tt = 0;
  for (let k = 0; k < reference.length; k++) {
    rt += reference[k]! * test[k]!;
    tt += test[k]! * test[k]!;
  }
  return tt > 0 ? rt / tt : 1;
}

function snrDb(reference: Float32Array, test: Float32Array, gain: number): number {
  let signal = 0;
  let noise = 0;
  for (let k = 0; k < reference.length; k++) {
    const r = reference[k]!;
    const d = gain * test[k]! - r;
    signal += r * r;
    noise += d * d;
  }
  return 10 * Math.log10(signal / noise);
}

function rms(signal: Float32Array): number {
  let sum = 0;
  for (const v of signal) sum += v * v;
  return Math.sqrt(sum / signal.length);
}

/** The largest sine amplitude within ±`spanHz` of `hz` (Hann-windowed DFT, 0.5 Hz steps). */
function peakAmplitude(signal: Float32Array, hz: number, spanHz: number): number {
  const n = signal.length;
  const window = Float64Array.from(
    { length: n },
    (_, k) => 0.5 - 0.5 * Math.cos((2 * Math.PI * k) / (n - 1)),
  );
  const windowSum = window.reduce((sum, w) => sum + w, 0);
  let peak = 0;
  for (let f = hz - spanHz; f <= hz + spanHz; f += 0.5) {
    const omega = (2 * Math.PI * f) / OUTPUT_RATE;
    let re = 0;
    let im = 0;
    for (let k = 0; k < n; k++) {
      const v = signal[k]! * window[k]!;
      re += v * Math.cos(omega * k);
      im -= v * Math.sin(omega * k);
    }
    peak = Math.max(peak, (2 * Math.hypot(re, im)) / windowSum);
  }
  return peak;
}
